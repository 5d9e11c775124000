#pragma once

#include "builtinarguments.h"
#include "jsonfieldreader.h"

namespace hg::builtinreaders {

// The arguments of SendMail and of the four COPY builtins, read as BuiltinArguments::parse()
// reads the others: the first problem is kept in the reader, naming the builtin and field.
SendMailArguments readSendMail(JsonFieldReader &fields);
CopyDataArguments readCopyData(Builtin builtin, JsonFieldReader &fields);

} // namespace hg::builtinreaders
