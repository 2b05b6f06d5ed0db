// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/errorbanner.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyle>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace scopeline {

namespace {
constexpr int kDetailsLines = 8; // enough for a program's last words; more scrolls
// Lines of the message shown in the banner; a longer one (25 runs that failed) is shown whole under
// Details, so that the banner never pushes the window past a laptop's screen.
constexpr int kTextLines = 4;
constexpr int kLineChars = 160; // a line longer may be cut at the window's edge: whole under Details too
} // namespace

ErrorBanner::ErrorBanner(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("errorBanner"));
    setAttribute(Qt::WA_StyledBackground); // a plain QWidget subclass paints no style-sheet background
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->setSpacing(4);
    m_row = new QHBoxLayout;
    m_icon = new QLabel;
    m_icon->setAlignment(Qt::AlignTop);
    m_text = new QLabel;
    m_text->setObjectName(QStringLiteral("errorText"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText); // messages quote paths and program output, never markup
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long path cannot wrap: it is cut at the window's edge (and whole under Details), rather than
    // widening the window past the screen.
    m_text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_detailsToggle = new QToolButton;
    m_detailsToggle->setObjectName(QStringLiteral("errorDetailsToggle"));
    m_detailsToggle->setText(tr("Details"));
    m_detailsToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_detailsToggle->setArrowType(Qt::RightArrow); // down while open; the text stays, so does the width
    m_detailsToggle->setCheckable(true);
    m_detailsToggle->setAutoRaise(true);
    m_dismiss = new QToolButton;
    m_dismiss->setObjectName(QStringLiteral("errorDismiss"));
    m_dismiss->setText(QStringLiteral("✕"));
    m_dismiss->setToolTip(tr("Dismiss"));
    m_dismiss->setAutoRaise(true);
    m_row->addWidget(m_icon);
    m_row->addWidget(m_text, 1);
    m_row->addWidget(m_detailsToggle);
    m_row->addWidget(m_dismiss);
    layout->addLayout(m_row);

    m_details = new QPlainTextEdit;
    m_details->setObjectName(QStringLiteral("errorDetails"));
    m_details->setReadOnly(true);
    m_details->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_details->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOn); // a fixed height: see fitDetailsHeight
    m_details->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(m_details);

    setKind(Kind::Error);
    connect(m_detailsToggle, &QToolButton::toggled, this, &ErrorBanner::setDetailsExpanded);
    connect(m_dismiss, &QToolButton::clicked, this, [this] {
        clear();
        emit dismissed();
    });
    clear();
}

void ErrorBanner::setKind(Kind kind)
{
    m_kind = kind;
    const bool note = kind == Kind::Note;
    // Scoped to the banner, its message and its tool buttons (whose text a dark palette made light grey
    // on the light banner), so that the details box keeps the normal colours. A note as the caveats are.
    setStyleSheet(
        note ? QStringLiteral("#errorBanner { background: #fff6dc; border: 1px solid #ecd48a; }"
                              "#errorBanner > QLabel, #errorBanner > QToolButton { color: #5c4300; }")
             : QStringLiteral("#errorBanner { background: #fdecea; border: 1px solid #f5c2c0; }"
                              "#errorBanner > QLabel, #errorBanner > QToolButton { color: #8c1d18; }"));
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(
        style()
            ->standardIcon(note ? QStyle::SP_MessageBoxInformation : QStyle::SP_MessageBoxWarning, nullptr,
                           this)
            .pixmap(size, size));
}

void ErrorBanner::showError(const QString &text, const QString &details, Kind kind)
{
    setKind(kind);
    const QStringList lines = text.split(QLatin1Char('\n'));
    const int shown = lines.size() > kTextLines ? kTextLines - 1 : int(lines.size());
    m_text->setText(shown < lines.size()
                        ? lines.mid(0, shown).join(QLatin1Char('\n')) + QLatin1Char('\n') +
                              tr("… and %n more line(s) under Details", nullptr, int(lines.size() - shown))
                        : text);
    const bool cut = shown < lines.size() || std::any_of(lines.begin(), lines.end(), [](const QString &line) {
                         return line.size() > kLineChars;
                     });
    m_details->setPlainText(((cut ? text + QStringLiteral("\n\n") : QString()) + details).trimmed());
    m_detailsToggle->setVisible(!m_details->toPlainText().isEmpty());
    fitDetailsHeight();
    m_detailsToggle->setChecked(false);
    setDetailsExpanded(false);
    show();
}

void ErrorBanner::clear()
{
    hide();
    m_text->clear();
    m_details->clear();
    m_detailsToggle->setChecked(false);
}

QString ErrorBanner::text() const
{
    return isShown() ? m_text->text() : QString();
}

QString ErrorBanner::details() const
{
    return isShown() ? m_details->toPlainText() : QString();
}

bool ErrorBanner::detailsExpanded() const
{
    return !m_details->isHidden();
}

QPushButton *ErrorBanner::addButton(const QString &text)
{
    auto *button = new QPushButton(text);
    m_row->insertWidget(m_row->indexOf(m_detailsToggle), button);
    return button;
}

void ErrorBanner::setDetailsExpanded(bool expanded)
{
    m_details->setVisible(expanded && !m_details->toPlainText().isEmpty());
    m_detailsToggle->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
}

void ErrorBanner::fitDetailsHeight()
{
    // As many lines as the details have, up to kDetailsLines (more scroll), and room for the horizontal
    // scroll bar: the lines are not wrapped, as a program's output is read line by line.
    const int lines = std::clamp(m_details->blockCount(), 1, kDetailsLines);
    m_details->setVerticalScrollBarPolicy(m_details->blockCount() > kDetailsLines ? Qt::ScrollBarAsNeeded
                                                                                  : Qt::ScrollBarAlwaysOff);
    const int scrollBar = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_details);
    const int lineSpacing = m_details->fontMetrics().lineSpacing();
    m_details->setFixedHeight((2 * lines + 1) * lineSpacing / 2 + // and half a line spare
                              int(2 * m_details->document()->documentMargin()) + 2 * m_details->frameWidth() +
                              scrollBar);
}

} // namespace scopeline
