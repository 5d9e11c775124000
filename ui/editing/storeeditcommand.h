#pragma once

#include "base/result.h"

#include <QUndoCommand>

#include <functional>

namespace hg {

// One definition edit on the undo stack, as two store writes: what it does and what takes it
// back. The edit has already been made when the command is pushed (the editor needs its
// Status first), so the stack's initial redo() is skipped. A step that fails later (another
// client deleted the object meanwhile) is reported and makes the command obsolete, so the
// stack drops it instead of replaying it forever.
class StoreEditCommand final : public QUndoCommand
{
public:
    using Step = std::function<Status()>;
    using Report = std::function<void(const Status &)>;

    StoreEditCommand(const QString &text, Step redo, Step undo, Report report);

    void redo() override;
    void undo() override;

private:
    void apply(const Step &step);

    Step m_redo;
    Step m_undo;
    Report m_report;
    bool m_alreadyDone = true;
};

} // namespace hg
