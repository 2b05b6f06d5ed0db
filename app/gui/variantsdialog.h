// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Picks the variants to compare: a baseline and candidates, each a trace folder (`[LABEL=]PATH`, a
// line each, the baseline first), added by browsing, typing or dropping, reordered and removed.

#include <QDialog>

class QDialogButtonBox;
class QListWidget;

namespace scopeline {

class VariantsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit VariantsDialog(QWidget *parent = nullptr);

    // Each variant as given, the baseline first.
    QStringList arguments() const;
    void setArguments(const QStringList &arguments);
    void addVariant(const QString &argument);
    QListWidget *list() const { return m_list; }
    // Moves the selected variant up (-1) or down (+1).
    void moveSelected(int by);
    bool canOpen() const;

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void updateButtons();

    QListWidget *m_list = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace scopeline
