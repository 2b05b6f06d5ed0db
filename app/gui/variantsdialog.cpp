// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/variantsdialog.h"

#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

namespace scopeline {

VariantsDialog::VariantsDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Open Variants"));
    setAcceptDrops(true);
    auto *hint = new QLabel(
        tr("A baseline and its candidates, one trace folder each, the baseline first. Double-click a line to "
           "edit it: LABEL=FOLDER names a variant (by default its folder's name); labels that are all "
           "numbers "
           "(K=5, K=10, …) make a sweep. Folders can be dropped here."),
        this);
    hint->setWordWrap(true);
    m_list = new QListWidget(this);
    m_list->setToolTip(tr("The variants, the baseline first; double-click to edit, Delete to remove"));
    m_list->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    connect(m_list, &QListWidget::itemChanged, this, &VariantsDialog::updateButtons);
    connect(m_list, &QListWidget::currentRowChanged, this, &VariantsDialog::updateButtons);

    auto *add = new QPushButton(tr("&Add Folder…"), this);
    add->setToolTip(tr("Choose a trace folder to add as a variant"));
    connect(add, &QPushButton::clicked, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Add a variant"));
        if (!folder.isEmpty())
            addVariant(folder);
    });
    auto *remove = new QPushButton(tr("&Remove"), this);
    remove->setToolTip(tr("Remove the selected variant (Delete)"));
    const auto removeSelected = [this] {
        delete m_list->currentItem();
        updateButtons();
    };
    connect(remove, &QPushButton::clicked, this, removeSelected);
    auto *deleteKey = new QShortcut(QKeySequence::Delete, m_list, nullptr, nullptr, Qt::WidgetShortcut);
    connect(deleteKey, &QShortcut::activated, this, removeSelected);
    auto *up = new QPushButton(tr("Move &Up"), this);
    up->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Up));
    up->setToolTip(tr("Earlier in the list (Alt+Up); the first is the baseline"));
    connect(up, &QPushButton::clicked, this, [this] { moveSelected(-1); });
    auto *down = new QPushButton(tr("Move &Down"), this);
    down->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
    down->setToolTip(tr("Later in the list (Alt+Down)"));
    connect(down, &QPushButton::clicked, this, [this] { moveSelected(1); });
    auto *side = new QVBoxLayout;
    for (QPushButton *button : {add, remove, up, down})
        side->addWidget(button);
    side->addStretch(1);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *middle = new QHBoxLayout;
    middle->addWidget(m_list, 1);
    middle->addLayout(side);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(hint);
    layout->addLayout(middle, 1);
    layout->addWidget(m_buttons);
    resize(640, 360);
    updateButtons();
}

QStringList VariantsDialog::arguments() const
{
    QStringList arguments;
    for (int i = 0; i < m_list->count(); ++i)
        if (const QString text = m_list->item(i)->text().trimmed(); !text.isEmpty())
            arguments << text;
    return arguments;
}

void VariantsDialog::setArguments(const QStringList &arguments)
{
    m_list->clear();
    for (const QString &argument : arguments)
        addVariant(argument);
    updateButtons();
}

void VariantsDialog::addVariant(const QString &argument)
{
    auto *item = new QListWidgetItem(argument, m_list);
    item->setFlags(item->flags() | Qt::ItemIsEditable);
    m_list->setCurrentItem(item);
    updateButtons();
}

void VariantsDialog::moveSelected(int by)
{
    const int row = m_list->currentRow(), to = row + by;
    if (row < 0 || to < 0 || to >= m_list->count())
        return;
    m_list->insertItem(to, m_list->takeItem(row));
    m_list->setCurrentRow(to);
}

bool VariantsDialog::canOpen() const
{
    return arguments().size() >= 2;
}

void VariantsDialog::updateButtons()
{
    QPushButton *open = m_buttons->button(QDialogButtonBox::Open);
    open->setEnabled(canOpen());
    open->setToolTip(canOpen() ? tr("Compare each candidate with the baseline")
                               : tr("Add a baseline and at least one candidate"));
}

void VariantsDialog::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void VariantsDialog::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            addVariant(url.toLocalFile());
    event->acceptProposedAction();
}

} // namespace scopeline
