// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/variantsview.h"

#include "model/comparison/sweep.h"
#include "model/tables/tableformat.h"
#include "widgets/charts/kernelmatrix.h"
#include "widgets/charts/variantbars.h"
#include "widgets/panels/proportionalsplitter.h"
#include "widgets/tables/columntablemodel.h"
#include "widgets/tables/plaintableview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace scopeline {

namespace {

// The Steps table's columns: the variant, then what `steps` prints (the model keeps a reference).
const std::vector<TableColumn<VariantStepRow>> &stepColumns()
{
    using C = TableColumn<VariantStepRow>;
    static const std::vector<C> columns = [] {
        std::vector<C> list = {C{QStringLiteral("variant"),
                                 QObject::tr("Variant"),
                                 QObject::tr("The candidate, against the baseline"),
                                 [](const VariantStepRow &r) { return QVariant(r.variant); },
                                 cell::text,
                                 {},
                                 -12}};
        for (C &c : liftColumns(StepBreakdown::cliColumns(), &VariantStepRow::row))
            list.push_back(std::move(c));
        return list;
    }();
    return columns;
}

} // namespace

VariantsView::VariantsView(QWidget *parent) : QWidget(parent)
{
    m_lead = new QLabel(this);
    m_lead->setWordWrap(true);
    m_lead->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lead->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_lead->setToolTip(
        tr("Each candidate's step against the baseline: the change, in brackets Fieller's interval "
           "of the ratio at the level the verdict is judged (the step rows of all candidates are "
           "one Holm family), and the part of the step that changed most"));
    m_bars = new VariantBars(this);
    m_matrix = new KernelMatrix(this);
    m_stepModel = new ColumnTableModel<VariantStepRow>(stepColumns(), this);
    m_stepView = plainTableView(m_stepModel, this);
    m_stepView->setToolTip(
        tr("Each candidate's step and its parts against the baseline: the step rows of all "
           "candidates one Holm family, their parts another"));
    auto *figures = new QTabWidget(this);
    figures->setDocumentMode(true);
    figures->addTab(m_stepView, tr("Steps"));
    figures->addTab(m_matrix, tr("Kernels"));
    auto *split = new ProportionalSplitter(Qt::Horizontal, {2, 3}, this);
    split->addWidget(m_bars);
    split->addWidget(figures);
    split->setChildrenCollapsible(false);

    m_pairA = new QComboBox(this);
    m_pairB = new QComboBox(this);
    m_pairA->setToolTip(tr("The variant to open as side A of the pair views"));
    m_pairB->setToolTip(tr("The variant to open as side B of the pair views"));
    m_open = new QPushButton(tr("&Compare the Pair"), this);
    m_open->setToolTip(tr("Open the two variants in the timelines, What changed and Scopes"));
    connect(m_open, &QPushButton::clicked, this, [this] {
        const int a = m_pairA->currentIndex(), b = m_pairB->currentIndex();
        if (a >= 0 && b >= 0)
            emit pairRequested(m_paths.value(a), m_paths.value(b));
    });
    auto *pairRow = new QHBoxLayout;
    pairRow->addWidget(new QLabel(tr("Pair views:"), this));
    pairRow->addWidget(m_pairA);
    pairRow->addWidget(new QLabel(tr("against"), this));
    pairRow->addWidget(m_pairB);
    pairRow->addWidget(m_open);
    pairRow->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_lead);
    layout->addWidget(split, 1);
    layout->addLayout(pairRow);
}

VariantsView::~VariantsView() = default;

void VariantsView::setVariants(const std::vector<QList<LoadedRun>> &sides, const QStringList &labels,
                               const QStringList &paths)
{
    if (sides.size() < 2) {
        clear();
        return;
    }
    m_labels = labels;
    m_paths = paths;
    const std::vector<QList<LoadedRun>> candidates(sides.begin() + 1, sides.end());
    m_steps = std::make_unique<VariantSteps>(sides.front(), candidates, labels.mid(1));
    m_diff = std::make_unique<VariantDiff>(sides.front(), candidates, labels.mid(1));
    QStringList lead{tr("Baseline: %1").arg(labels.value(0))};
    std::vector<VariantStepRow> rows;
    for (int i = 0; i < int(candidates.size()); ++i) {
        lead << m_steps->leadLine(i);
        for (const StepRow &row : m_steps->comparisons()[std::size_t(i)].rows())
            rows.push_back({labels.value(i + 1), row});
    }
    m_lead->setText(lead.join(QLatin1Char('\n')));
    m_stepModel->setRows(std::move(rows));
    m_stepView->resizeColumnsToContents();
    // a sweep (every label a number, three or more) as lines over the parameter
    m_bars->setVariants(m_steps.get(), labels, labels.size() >= 3 ? Sweep::parameters(labels) : std::vector<double>{});
    m_matrix->setDiff(m_diff.get());
    for (QComboBox *box : {m_pairA, m_pairB}) {
        box->clear();
        box->addItems(labels);
    }
    m_pairB->setCurrentIndex(1);
}

void VariantsView::clear()
{
    m_bars->setVariants(nullptr, {});
    m_matrix->setDiff(nullptr);
    m_stepModel->setRows({});
    m_steps.reset();
    m_diff.reset();
    m_labels.clear();
    m_paths.clear();
    m_lead->clear();
    m_pairA->clear();
    m_pairB->clear();
}

} // namespace scopeline
