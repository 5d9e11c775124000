#pragma once

#include "domain/builtinarguments.h"

#include <QJsonObject>
#include <QWidget>

class QFormLayout;

namespace hg {

// The fields of one builtin's JSON argument as a form (Sleep: seconds; CopyFile: source,
// destination, overwrite; …). Keys the form has no field for are kept as they were.
class BuiltinArgumentForm final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BuiltinArgumentForm)

public:
    explicit BuiltinArgumentForm(QWidget *parent = nullptr);

    void show(Builtin builtin, const QJsonObject &argument);
    QJsonObject argument() const { return m_argument; }
    QString argumentText() const;

Q_SIGNALS:
    void changed();

private:
    QFormLayout *m_layout;
    QJsonObject m_argument;
};

} // namespace hg
