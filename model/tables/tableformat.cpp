// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/tables/tableformat.h"

#include "model/tables/durationformat.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace scopeline {

QString formatPercent(double fraction, int decimals)
{
    if (std::isnan(fraction))
        return {};
    // a share that rounds to nothing is 0, not "-0.0 %"
    const double percent = std::fabs(100 * fraction) < 0.5 * std::pow(10.0, -decimals) ? 0.0 : 100 * fraction;
    return QStringLiteral("%1 %").arg(percent, 0, 'f', decimals);
}

QString formatChange(double fraction, int decimals)
{
    if (std::isinf(fraction) && fraction > 0) // from nothing: a kernel of B's processes alone
        return QCoreApplication::translate("TableFormat", "new in B");
    return std::isnan(fraction) ? QString() : QString::asprintf("%+.*f %%", decimals, 100 * fraction);
}

QString formatChangeInterval(double change, double ciLow, double ciHigh, int decimals)
{
    if (std::isnan(change))
        return {};
    if (std::isnan(ciLow) || std::isnan(ciHigh)) // exact (a kernel gone), or a tie without one
        return formatChange(change, decimals);
    const int ends = intervalDecimals(ciLow, ciHigh, decimals);
    return formatChange(change, decimals) +
           QString::asprintf(" [%+.*f, %+.*f]", ends, 100 * ciLow, ends, 100 * ciHigh);
}

QString formatChangeBounds(double low, double high)
{
    if (!std::isfinite(low) || !std::isfinite(high))
        return {};
    const int decimals = intervalDecimals(low, high, 1);
    return QStringLiteral("[%1, %2]").arg(formatChange(low, decimals), formatChange(high, decimals));
}

int intervalDecimals(double low, double high, int decimals)
{
    const auto readsAsZero = [](double fraction, int d) {
        return fraction != 0 && std::isfinite(fraction) &&
               std::fabs(100 * fraction) < 0.5 * std::pow(10.0, -d);
    };
    constexpr int kMostDecimals = 6;
    int needed = decimals;
    while (needed < kMostDecimals && (readsAsZero(low, needed) || readsAsZero(high, needed)))
        ++needed;
    // an end that reads as 0 even then is rounding, not a change (identical runs): the digits would show
    // nothing but "-0.000000"
    if (readsAsZero(low, needed) || readsAsZero(high, needed))
        return decimals;
    return needed;
}

QString formatPValue(double p)
{
    if (std::isnan(p))
        return QStringLiteral("–");
    // Only an underflowed erfc (a rank test on huge samples) still gives 0: below the smallest double.
    if (p == 0)
        return QStringLiteral("< 1e-323");
    if (p < 1e-3) {
        // three significant digits, trailing zeros of the mantissa dropped: 1.27e-111, 1e-300
        QString text = QString::number(p, 'e', 2);
        const qsizetype e = text.indexOf(QLatin1Char('e'));
        qsizetype end = e;
        while (end > 0 && text[end - 1] == QLatin1Char('0'))
            --end;
        if (end > 0 && text[end - 1] == QLatin1Char('.'))
            --end;
        return text.left(end) + text.mid(e);
    }
    return QString::number(p, 'g', 3);
}

QString formatCount(double count)
{
    return QString::number(count, 'f', count == std::trunc(count) ? 0 : 1);
}

namespace cell {

QString text(const QVariant &value)
{
    return value.toString();
}

QString duration(const QVariant &ns)
{
    return formatDuration(ns.toDouble());
}

QString signedDuration(const QVariant &ns)
{
    return formatSignedDuration(ns.toDouble());
}

QString percent(const QVariant &fraction)
{
    return formatPercent(fraction.toDouble());
}

QString change(const QVariant &fraction)
{
    return formatChange(fraction.toDouble());
}

QString pValue(const QVariant &p)
{
    return formatPValue(p.toDouble());
}

QString count(const QVariant &count)
{
    return formatCount(count.toDouble());
}

} // namespace cell

QString printable(const QString &text)
{
    const auto acts = [](char16_t c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f ||
               (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
    };
    if (std::none_of(text.begin(), text.end(), [&](QChar c) { return acts(c.unicode()); }))
        return text;
    QString shown;
    for (const QChar c : text)
        shown += acts(c.unicode()) ? QStringLiteral("\\u%1").arg(int(c.unicode()), 4, 16, QLatin1Char('0'))
                                   : QString(c);
    return shown;
}

int displayWidth(const QString &text)
{
    // The main wide blocks of Unicode's East Asian Width (W and F: CJK, Hangul, kana, fullwidth forms) and
    // the emoji blocks, as terminals draw them.
    static constexpr char32_t kWide[][2] = {
        {0x1100, 0x115F}, {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},
        {0xA000, 0xA4CF}, {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE30, 0xFE4F},   {0xFF00, 0xFF60},
        {0xFFE0, 0xFFE6}, {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F900, 0x1F9FF}, {0x20000, 0x3FFFD}};
    int width = 0;
    for (const char32_t c : text.toUcs4()) {
        const QChar::Category category = QChar::category(c);
        if (category == QChar::Mark_NonSpacing || category == QChar::Mark_Enclosing || c == 0x200D ||
            (c >= 0xFE00 && c <= 0xFE0F))
            continue; // drawn on the character before: combining marks, joiners, variation selectors
        width += std::any_of(std::begin(kWide), std::end(kWide),
                             [c](const char32_t(&range)[2]) { return c >= range[0] && c <= range[1]; })
                     ? 2
                     : 1;
    }
    return width;
}

} // namespace scopeline
