#pragma once
// The timeline of one run: CPU threads with their runtime calls above GPU streams with their kernels,
// idle gaps shaded, launch -> kernel arrows; zoom (wheel, +/-), pan (drag), range selection, fit.

#include "model/loadedrun.h"

#include <QWidget>

#include <cstdint>

namespace scopeline {

class TimelineView : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    // Shows a run (an empty LoadedRun clears the view) and fits it.
    void setRun(const LoadedRun &run);
    const LoadedRun &run() const;

    // The visible window in the trace's ns.
    int64_t visibleStart() const;
    int64_t visibleEnd() const;
    void setVisibleRange(int64_t start, int64_t end);
    void fit();
    // Zooms around the centre by a factor (> 1 zooms in).
    void zoomBy(double factor);

    int64_t selectedEvent() const; // -1 when none
    void selectEvent(int64_t event);

    // Rich-text description of an event (name, times, duration, args, scope path, launch/kernels),
    // shared by tooltips and the details pane.
    static QString describeEvent(const LoadedRun &run, uint32_t event);

    QSize sizeHint() const override;

signals:
    void visibleRangeChanged(int64_t start, int64_t end);
    void eventSelected(int64_t event);
    // A dragged time range with Shift, or cleared (start == end).
    void rangeSelected(int64_t start, int64_t end);
};

} // namespace scopeline
