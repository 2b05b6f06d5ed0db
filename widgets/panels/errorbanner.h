// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An error shown in place, across the top of a window or panel: a one-line message, optional details
// (e.g. a program's output) behind a Details toggle, and a dismiss button. Hidden until showError().

#include <QWidget>

class QHBoxLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QToolButton;

namespace scopeline {

class ErrorBanner : public QWidget
{
    Q_OBJECT
public:
    explicit ErrorBanner(QWidget *parent = nullptr);

    // An error, red; or a note on what was done (a partial world opened, a link counted once), yellow.
    enum class Kind { Error, Note };
    // Shows the banner with `text`; `details`, when given, are one click away (collapsed at first).
    void showError(const QString &text, const QString &details = {}, Kind kind = Kind::Error);
    Kind kind() const { return m_kind; }
    // Hides the banner and forgets its message.
    void clear();

    bool isShown() const { return !isHidden(); }
    // The message and details shown; empty while the banner is hidden.
    QString text() const;
    QString details() const;
    bool detailsExpanded() const;

    // A button beside the message for what the user can do about it (e.g. Reload). The caller connects
    // it and shows or hides it per message; it is created visible.
    QPushButton *addButton(const QString &text);

signals:
    // The user closed the banner (not emitted by clear()).
    void dismissed();

private:
    void setDetailsExpanded(bool expanded);
    void fitDetailsHeight();

    void setKind(Kind kind);

    Kind m_kind = Kind::Error;
    QLabel *m_icon = nullptr;
    QLabel *m_text = nullptr;
    QToolButton *m_detailsToggle = nullptr;
    QPlainTextEdit *m_details = nullptr;
    QToolButton *m_dismiss = nullptr;
    QHBoxLayout *m_row = nullptr; // message, added buttons, Details, dismiss
};

} // namespace scopeline
