#pragma once
// Picks the pair to compare: A (baseline) and B (candidate), each a trace folder, run folder or file,
// by typing, browsing or dropping; lists the runs found on each side; offers the recent pairs.

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace scopeline {

class OpenDialog : public QDialog
{
    Q_OBJECT
public:
    OpenDialog(const QStringList &recentPairs, QWidget *parent = nullptr);

    QString pathA() const;
    QString pathB() const;
    void setPaths(const QString &a, const QString &b);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    struct Side
    {
        QLineEdit *path = nullptr;
        QListWidget *runs = nullptr;
        QLabel *status = nullptr;
    };
    QWidget *makeSide(Side &side, const QString &title, const QString &tooltip);
    void rescan(Side &side);

    Side m_a, m_b;
    QComboBox *m_recent = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace scopeline
