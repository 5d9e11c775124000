// ChainEditor: opening a chain (read on the reader's thread, or here) and showing it.
#include "base/terminaltext.h"
#include "chain/chainoccurrencesbox.h"
#include "chain/chainopening.h"
#include "chain/chainschedulesbox.h"
#include "chain/chainsettingsbar.h"
#include "chain/chaintriggersbox.h"
#include "chaineditor.h"
#include "common/elidedlabel.h"
#include "dag/dagscene.h"
#include "dag/tasknodeitem.h"
#include "dependenciesmodel.h"
#include "domain/chainpath.h"
#include "schedulesmodel.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/connectionprofilerepository.h"
#include "store/projectrepository.h"
#include "storereader.h"
#include "taskform/taskform.h"
#include "tasksmodel.h"

#include <QApplication>
#include <QFrame>
#include <QGraphicsView>
#include <QLabel>
#include <QSet>

#include <algorithm>
#include <utility>

namespace hg {
namespace {

// What the occurrences box shows depends on: the chain, and its schedules' timing.
QString occurrencesKey(qint64 chainId, const QList<Schedule> &schedules)
{
    QStringList parts{QString::number(chainId)};
    for (const Schedule &s : schedules)
        parts << QStringLiteral("%1|%2|%3|%4|%5|%6|%7|%8|%9")
                     .arg(s.id)
                     .arg(s.expression, s.timeZone)
                     .arg(int(s.dialect))
                     .arg(int(s.misfire))
                     .arg(s.enabled)
                     .arg(s.calendarId)
                     .arg(s.activeFrom.toMSecsSinceEpoch())
                     .arg(s.activeUntil.toMSecsSinceEpoch());
    return parts.join(QLatin1Char(';'));
}

} // namespace

void ChainEditor::showChain(qint64 chainId)
{
    // The same chain again (the tree reloaded after a rename, say): keep the task in the
    // form and the canvas as they are.
    if (chainId > 0 && chainId == m_chain.id) {
        if (m_reader && !m_opening)
            refreshOnReader(); // the tree read again after a change elsewhere
        else
            reload();
        return;
    }
    ++m_openings; // an answer still out is for a chain no longer asked for
    m_message->hide();
    m_form->clear();
    m_freshChain = true;
    if (!m_reader || chainId <= 0) {
        m_opening = false;
        m_wantedChain = 0;
        m_chain = Chain();
        m_chain.id = std::max<qint64>(chainId, 0);
        present(nullptr);
        return;
    }
    // Read on the reader's thread; meanwhile the chain shown before stays, and nothing edits
    // it (chainId() is the chain shown, until this one is).
    openOnReader(chainId);
}

void ChainEditor::openOnReader(qint64 chainId)
{
    m_opening = true;
    setEnabled(false);
    if (m_readingChain) {
        m_wantedChain = chainId; // read once the one out answers: never a queue of them
        return;
    }
    m_readingChain = true;
    m_wantedChain = 0;
    const int opening = m_openings;
    m_reader->read<ChainOpening>(
        this, [chainId](Store &store) { return ChainOpening::read(store, chainId); },
        [this, opening, chainId](const Result<ChainOpening> &opened) {
            m_readingChain = false;
            if (opening != m_openings) { // another chain was asked for meanwhile
                if (m_opening && m_wantedChain > 0)
                    openOnReader(std::exchange(m_wantedChain, 0));
                return;
            }
            m_opening = false;
            // Fresh again: a redraw of the chain shown before may have come meanwhile.
            m_freshChain = true;
            if (opened) {
                present(&opened.value());
                return;
            }
            m_chain = Chain(); // not read there: here, which shows what can be shown
            m_chain.id = chainId;
            present(nullptr);
        });
}

void ChainEditor::refreshOnReader()
{
    const int opening = ++m_openings; // an edit of this window's reads at once and wins
    const qint64 chainId = m_chain.id;
    m_reader->read<ChainOpening>(
        this, [chainId](Store &store) { return ChainOpening::read(store, chainId); },
        [this, opening](const Result<ChainOpening> &opened) {
            if (opening != m_openings)
                return;
            if (opened) {
                // The form's task and the canvas stay as they are; a task added elsewhere is
                // not selected (typing went into it; helper-1).
                m_outsideRefresh = true;
                present(&opened.value());
                m_outsideRefresh = false;
            } else
                reload(); // here, which shows what can be shown
        });
}

void ChainEditor::setChoicesFor(qint64 chainId, const QStringList &connections)
{
    m_choicesFor = chainId;
    // Subchain choices: every other chain's path, from one read of projects and chains -- once
    // the user goes to the subchain field, not at every chain opened (10,000 chains).
    m_form->setChoices(connections, [store = &m_store, chainId] {
        QStringList paths;
        const Result<QList<Project>> projects = ProjectRepository(*store).list();
        const Result<QList<Chain>> chains = ChainRepository(*store).list();
        if (!projects || !chains)
            return paths;
        QHash<qint64, QString> projectNames;
        for (const Project &project : projects.value())
            projectNames.insert(project.id, project.name);
        for (const Chain &chain : chains.value()) {
            if (chain.id != chainId)
                paths << ChainPath{projectNames.value(chain.projectId), chain.name}.toString();
        }
        return paths;
    });
}

void ChainEditor::sceneRebuilt()
{
    if (const qint64 reveal = std::exchange(m_revealTask, 0); reveal > 0) {
        if (TaskNodeItem *node = m_scene->node(reveal)) {
            m_scene->selectTask(reveal);
            m_view->ensureVisible(node);
        }
    }
    if (!m_freshChain)
        return;
    m_freshChain = false;
    // A chain just opened: on its first task, with the whole DAG in view.
    if (!m_tasks->tasks().isEmpty() && m_form->taskId() == 0)
        m_scene->selectTask(m_tasks->tasks().constFirst().id);
    m_view->resetTransform();
    const QRectF scene = m_scene->sceneRect();
    const QSize view = m_view->viewport()->size();
    // Only scaled down, and only once the canvas has its real size.
    if (view.width() > 200 && (scene.width() > view.width() || scene.height() > view.height()))
        m_view->fitInView(scene, Qt::KeepAspectRatio);
}

void ChainEditor::reload()
{
    ++m_openings; // read here and now: an opening still out is dropped
    m_opening = false;
    m_wantedChain = 0;
    present(nullptr);
}

void ChainEditor::present(const ChainOpening *opened)
{
    if (opened) {
        m_chain = opened->chain;
    } else if (m_chain.id > 0) {
        if (const Result<Chain> chain = ChainRepository(m_store).byId(m_chain.id))
            m_chain = chain.value();
        else if (m_freshChain)
            m_chain = Chain(); // not readable: nothing of it shown
    }
    if (m_choicesFor != m_chain.id) {
        QStringList connections;
        if (opened) {
            connections = opened->connections;
        } else if (m_chain.id > 0) { // none shown: nothing to offer, nothing read
            if (const Result<QList<ConnectionProfile>> profiles =
                    ConnectionProfileRepository(m_store).list()) {
                for (const ConnectionProfile &profile : profiles.value())
                    connections << profile.name;
            }
        }
        setChoicesFor(m_chain.id, connections);
    }
    const bool shown = m_chain.id > 0;
    m_schedulesBox->setChainId(m_chain.id);
    setEnabled(shown);
    m_title->setFullText(shown ? terminaltext::escaped(m_chain.name) : tr("No chain selected"));
    m_description->setText(m_chain.description);
    m_description->setVisible(shown && !m_chain.description.isEmpty());
    m_settings->showChain(m_chain, shown);
    const qint64 selected = m_form->taskId();
    const qint64 shownBefore = m_tasks->chainId();
    QSet<qint64> before;
    for (const Task &task : m_tasks->tasks())
        before.insert(task.id);
    if (opened) {
        m_tasks->show(opened->tasks);
        m_dependencies->show(m_chain.id, opened->dependencies);
        m_schedules->show(m_chain.id, opened->schedules, m_chain.enabled);
        m_triggersBox->show(m_chain.id, opened->triggers);
    } else {
        (void)m_tasks->show(m_chain.id);
        (void)m_dependencies->show(m_chain.id);
        (void)m_schedules->show(m_chain.id, m_chain.enabled);
        const Result<QList<ChainTrigger>> triggers =
            m_chain.id > 0 ? ChainTriggerRepository(m_store).list(m_chain.id)
                           : Result<QList<ChainTrigger>>(QList<ChainTrigger>());
        m_triggersBox->show(m_chain.id, triggers ? triggers.value() : QList<ChainTrigger>());
    }
    m_emptyState->setVisible(shown && m_tasks->tasks().isEmpty());
    // The strip reads a day of the ledger: not again for an edit that cannot change it (a node
    // dragged on the canvas), only for another chain or changed schedules. Runs and missed
    // fires refresh it through the main window.
    if (const QString key = occurrencesKey(m_chain.id, m_schedules->schedules());
        key != m_occurrencesKey) {
        m_occurrencesKey = key;
        m_occurrences->showChain(m_chain.id);
    }
    const int row = m_tasks->rowOf(selected);
    // Being typed into while the chain was changed elsewhere: the fields stay as typed, the
    // cursor where it is.
    QWidget *focus = QApplication::focusWidget();
    const bool typing = m_outsideRefresh && focus && m_form->isAncestorOf(focus);
    if (row >= 0 && !typing)
        m_form->showTask(m_tasks->tasks().at(row));
    else if (row < 0)
        m_form->clear();
    // A task that came back (undo of a delete) or was added: selected and scrolled into view
    // once the canvas has redrawn.
    if (shownBefore == m_chain.id && m_chain.id > 0 && !m_outsideRefresh) {
        for (const Task &task : m_tasks->tasks()) {
            if (!before.contains(task.id)) {
                m_revealTask = task.id;
                break;
            }
        }
    }
}

} // namespace hg
