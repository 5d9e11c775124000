#pragma once

#include "base/result.h"

#include <QJsonObject>
#include <QStringList>

namespace hg {

// The BUILTIN tasks and the JSON object each takes as its one argument. Checked when a task
// is defined (so a typo is refused at once) and again, after ${…} substitution, when it runs.
//   NoOp        {}
//   Sleep       {"seconds": 5}                                   0 < seconds <= 86400
//   Log         {"message": "text"}
//   HttpRequest {"url": "https://…", "method", "headers", "body", "expect_status"}
//   Download    {"url": "https://…", "destination": "/abs/path", "overwrite": false,
//                "headers": {…}}
//   CopyFile    {"source": "/abs/path", "destination": "/abs/path", "overwrite": false}
//   Notify      {"message": "text", "title": "text"}
class BuiltinArguments final
{
public:
    static QStringList names();
    static QString example(const QString &builtin);
    // Errors name the builtin and the field: `Sleep.seconds: expected a number`.
    static Result<QJsonObject> parse(const QString &builtin, const QString &argumentText);
};

} // namespace hg
