#include "storeeditcommand.h"

namespace hg {

StoreEditCommand::StoreEditCommand(const QString &text, Step redo, Step undo, Report report)
    : QUndoCommand(text)
    , m_redo(std::move(redo))
    , m_undo(std::move(undo))
    , m_report(std::move(report))
{}

void StoreEditCommand::redo()
{
    if (m_alreadyDone) {
        m_alreadyDone = false;
        return;
    }
    apply(m_redo);
}

void StoreEditCommand::undo()
{
    apply(m_undo);
}

void StoreEditCommand::apply(const Step &step)
{
    const Status status = step();
    if (!status)
        setObsolete(true);
    m_report(status);
}

} // namespace hg
