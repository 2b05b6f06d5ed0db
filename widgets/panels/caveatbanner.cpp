// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/caveatbanner.h"

#include "model/comparison/replication.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>

namespace scopeline {

CaveatBanner::CaveatBanner(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("caveatBanner"));
    setAttribute(Qt::WA_StyledBackground); // a plain QWidget subclass paints no style-sheet background
    // a note, not an error: amber, where ErrorBanner is red
    setStyleSheet(QStringLiteral("#caveatBanner { background: #fff6dc; border: 1px solid #ecd48a; }"
                                 "#caveatBanner > QLabel { color: #5c4300; }"));
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Maximum); // wraps, never widens the window

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->setSpacing(6);
    auto *icon = new QLabel;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    icon->setPixmap(
        style()->standardIcon(QStyle::SP_MessageBoxInformation, nullptr, this).pixmap(size, size));
    icon->setAlignment(Qt::AlignTop);
    m_text = new QLabel;
    m_text->setObjectName(QStringLiteral("caveatText"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(icon);
    layout->addWidget(m_text, 1);
    setToolTip(tr("Runs of one process share its compilation, autotuning choices and memory placement, so "
                  "the tests here measured run-to-run variation only. With runs from two or more processes "
                  "a side, the process is the unit and the verdicts cover those differences too; when A "
                  "and B ran interleaved in one process, the differences cancel."));
    setCaveat({});
}

void CaveatBanner::setCaveat(const QString &caveat, const QStringList &traceCaveats)
{
    m_caveat = caveat;
    QStringList lines = traceCaveats;
    if (!caveat.isEmpty())
        lines.prepend(message(caveat));
    m_text->setText(lines.join(QLatin1Char('\n')));
    setVisible(!lines.isEmpty());
}

QString CaveatBanner::text() const
{
    return isHidden() ? QString() : m_text->text();
}

QString CaveatBanner::message(const QString &caveat)
{
    if (caveat.isEmpty())
        return {};
    const QString sentence = caveat.left(1).toUpper() + caveat.mid(1) + QLatin1Char('.');
    if (!caveat.contains(Replication::processCaveat()))
        return sentence; // different sets of GPUs: more processes do not lift it
    return tr("%1 To measure them, record each variant in several processes: one folder per process, "
              "side/<process>/<run>/ (e.g. matmul/proc_0/run_0/), or scopeline-hipbench run --processes N.")
        .arg(sentence);
}

} // namespace scopeline
