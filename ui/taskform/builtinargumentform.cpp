#include "builtinargumentform.h"

#include "notify/channelsecrets.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>

namespace hg {
namespace {

enum class FieldType { Text, List, Number, Flag, Password };
struct Field
{
    const char *key;
    FieldType type;
    const char *hint;
};

// The editable fields of each builtin, as BuiltinArguments reads them.
QList<Field> fieldsOf(Builtin builtin)
{
    switch (builtin) {
    case Builtin::NoOp:
        break;
    case Builtin::Sleep:
        return {{"seconds", FieldType::Number, "1 to 86400"}};
    case Builtin::Log:
        return {{"message", FieldType::Text, "text for the run's log"}};
    case Builtin::Notify:
        return {{"title", FieldType::Text, "notification title"},
                {"message", FieldType::Text, "notification text"}};
    case Builtin::CopyFile:
        return {{"source", FieldType::Text, "/absolute/path"},
                {"destination", FieldType::Text, "/absolute/path"},
                {"overwrite", FieldType::Flag, ""}};
    case Builtin::Download:
        return {{"url", FieldType::Text, "https://…"},
                {"destination", FieldType::Text, "/absolute/path"},
                {"overwrite", FieldType::Flag, ""}};
    case Builtin::HttpRequest:
        return {{"url", FieldType::Text, "https://…"},
                {"method", FieldType::Text, "GET"},
                {"body", FieldType::Text, ""}};
    case Builtin::SendMail:
        return {{"server", FieldType::Text, "smtp://user@mail.example.org:587"},
                {"tls", FieldType::Text, "starttls, implicit or none"},
                {"from", FieldType::Text, "me@example.org"},
                {"to", FieldType::List, "you@example.org, …"},
                {"cc", FieldType::List, ""},
                {"subject", FieldType::Text, ""},
                {"body", FieldType::Text, ""},
                {"attachments", FieldType::List, "/absolute/path, …"},
                {"passwordKey", FieldType::Password, ""}};
    case Builtin::CopyFromFile:
        return {{"sql", FieldType::Text, "COPY t FROM STDIN (FORMAT csv)"},
                {"file", FieldType::Text, "/absolute/path"}};
    case Builtin::CopyToFile:
        return {{"sql", FieldType::Text, "COPY t TO STDOUT (FORMAT csv)"},
                {"file", FieldType::Text, "/absolute/path"},
                {"overwrite", FieldType::Flag, ""}};
    case Builtin::CopyFromProgram:
        return {{"sql", FieldType::Text, "COPY t FROM STDIN"},
                {"program", FieldType::Text, "zcat"},
                {"arguments", FieldType::List, "/srv/t.gz"}};
    case Builtin::CopyToProgram:
        return {{"sql", FieldType::Text, "COPY t TO STDOUT"},
                {"program", FieldType::Text, "gzip"},
                {"arguments", FieldType::List, ""}};
    }
    return {};
}

} // namespace

BuiltinArgumentForm::BuiltinArgumentForm(QWidget *parent)
    : QWidget(parent)
    , m_layout(new QFormLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setRowWrapPolicy(QFormLayout::WrapLongRows);
}

QString BuiltinArgumentForm::argumentText() const
{
    return QString::fromUtf8(QJsonDocument(m_argument).toJson(QJsonDocument::Compact));
}

void BuiltinArgumentForm::show(Builtin builtin, const QJsonObject &argument)
{
    m_argument = argument;
    while (m_layout->rowCount() > 0)
        m_layout->removeRow(0);
    const QList<Field> fields = fieldsOf(builtin);
    if (fields.isEmpty())
        m_layout->addRow(new QLabel(tr("%1 takes no arguments.").arg(enumName(builtin)), this));
    for (const Field &field : fields) {
        const QString key = QString::fromLatin1(field.key);
        QWidget *editor = nullptr;
        switch (field.type) {
        case FieldType::Text: {
            auto *line = new QLineEdit(m_argument.value(key).toString(), this);
            line->setPlaceholderText(QString::fromUtf8(field.hint));
            connect(line, &QLineEdit::textEdited, this, [this, key](const QString &text) {
                if (text.isEmpty())
                    m_argument.remove(key);
                else
                    m_argument.insert(key, text);
                Q_EMIT changed();
            });
            editor = line;
            break;
        }
        case FieldType::List: {
            // Comma-separated (addresses, paths, arguments: none holds a comma in practice).
            QStringList items;
            for (const QJsonValue item : m_argument.value(key).toArray())
                items << item.toString();
            auto *line = new QLineEdit(items.join(QLatin1String(", ")), this);
            line->setPlaceholderText(QString::fromUtf8(field.hint));
            connect(line, &QLineEdit::textEdited, this, [this, key](const QString &text) {
                QJsonArray list;
                for (const QString &item : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
                    if (!item.trimmed().isEmpty())
                        list << item.trimmed();
                if (list.isEmpty())
                    m_argument.remove(key);
                else
                    m_argument.insert(key, list);
                Q_EMIT changed();
            });
            editor = line;
            break;
        }
        case FieldType::Number: {
            auto *spin = new QDoubleSpinBox(this);
            spin->setRange(0, 86400);
            spin->setDecimals(1);
            spin->setSpecialValueText(tr("(not set)"));
            spin->setValue(m_argument.value(key).toDouble());
            connect(spin, &QDoubleSpinBox::valueChanged, this, [this, key](double value) {
                if (value <= 0)
                    m_argument.remove(key);
                else
                    m_argument.insert(key, value);
                Q_EMIT changed();
            });
            editor = spin;
            break;
        }
        case FieldType::Password: {
            // Typed here, kept in the keychain (a 0600 file without one) when the field is
            // left; the argument names only its key, as `task add --password-stdin` writes it.
            auto *line = new QLineEdit(this);
            line->setEchoMode(QLineEdit::Password);
            line->setPlaceholderText(m_argument.value(key).toString().isEmpty()
                                         ? tr("none: no login")
                                         : tr("kept in the keychain; type to replace it"));
            line->setAccessibleName(tr("SendMail password"));
            connect(line, &QLineEdit::editingFinished, this, [this, line, key] {
                if (line->text().isEmpty())
                    return;
                const Result<QString> kept =
                    ChannelSecrets().keepPassword(QStringLiteral("sendmail task"), line->text());
                line->clear();
                if (!kept) {
                    line->setPlaceholderText(tr("not kept: %1").arg(kept.error().message));
                    return;
                }
                m_argument.insert(key, kept.value());
                line->setPlaceholderText(tr("kept in the keychain; type to replace it"));
                Q_EMIT changed();
            });
            editor = line;
            break;
        }
        case FieldType::Flag: {
            auto *box = new QCheckBox(this);
            box->setChecked(m_argument.value(key).toBool());
            connect(box, &QCheckBox::toggled, this, [this, key](bool on) {
                if (on)
                    m_argument.insert(key, true);
                else
                    m_argument.remove(key);
                Q_EMIT changed();
            });
            editor = box;
            break;
        }
        }
        editor->setObjectName(QStringLiteral("builtin.") + key);
        m_layout->addRow(
            field.type == FieldType::Password ? tr("password:") : key + QLatin1Char(':'), editor);
    }
}

} // namespace hg
