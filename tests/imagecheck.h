// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A check that a rendered picture shows something.

#include <QImage>

#include <set>

namespace imagecheck {

// Distinct colours in a grid of samples over the image: 1 means a blank picture.
inline int distinctColours(const QImage &image)
{
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

} // namespace imagecheck
