#pragma once

#include "base/enumnames.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>

#include <optional>

namespace hg {

// Reads typed fields of an imported JSON object. A missing optional field gives its default;
// a field of the wrong type records the first problem with its path
// ("projects[0].chains[1].tasks[2].kind: expected one of ...") and reading goes on harmlessly.
class JsonFieldReader final
{
    Q_DECLARE_TR_FUNCTIONS(hg::JsonFieldReader)

public:
    JsonFieldReader(const QJsonObject &object, QString path, QString *firstError);

    // A JSON object from text; blank text is the empty object; anything else is nullopt.
    static std::optional<QJsonObject> parseObject(const QString &text);

    QString string(const QString &key, const QString &fallback = {});
    QString requiredString(const QString &key);
    int integer(const QString &key, int fallback);
    double number(const QString &key, double fallback);
    bool boolean(const QString &key, bool fallback);
    QJsonObject object(const QString &key);
    QJsonArray array(const QString &key);
    QStringList stringList(const QString &key);
    QDateTime time(const QString &key);

    template<typename E>
    E enumeration(const QString &key, E fallback)
    {
        const QString text = string(key, enumName(fallback));
        if (const auto value = enumFromString<E>(text))
            return *value;
        fail(key, tr("'%1' is not one of %2").arg(text, enumChoices<E>()));
        return fallback;
    }

    bool has(const QString &key) const { return present(key); }
    // Records the first key that is not one of `known` (a misspelt option is an error, not
    // something silently ignored).
    void rejectUnknownKeys(const QStringList &known);

    QString childPath(const QString &key, qsizetype index) const;
    void fail(const QString &key, const QString &problem);

private:
    bool present(const QString &key) const;

    QJsonObject m_object;
    QString m_path;
    QString *m_firstError;
};

} // namespace hg
