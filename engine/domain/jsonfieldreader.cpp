#include "jsonfieldreader.h"

#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>
#include <limits>

namespace hg {

JsonFieldReader::JsonFieldReader(const QJsonObject &object, QString path, QString *firstError)
    : m_object(object)
    , m_path(std::move(path))
    , m_firstError(firstError)
{}

std::optional<QJsonObject> JsonFieldReader::parseObject(const QString &text)
{
    if (text.trimmed().isEmpty())
        return QJsonObject();
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return std::nullopt;
    return document.object();
}

bool JsonFieldReader::present(const QString &key) const
{
    const QJsonValue value = m_object.value(key);
    return !value.isUndefined() && !value.isNull();
}

void JsonFieldReader::fail(const QString &key, const QString &problem)
{
    if (m_firstError->isEmpty()) {
        const QString where = m_path.isEmpty() ? key : m_path + QLatin1Char('.') + key;
        *m_firstError = where + QLatin1String(": ") + problem;
    }
}

void JsonFieldReader::rejectUnknownKeys(const QStringList &known)
{
    for (auto it = m_object.begin(); it != m_object.end(); ++it) {
        if (!known.contains(it.key()))
            fail(it.key(),
                 known.isEmpty()
                     ? tr("unknown field (expected none)")
                     : tr("unknown field (expected %1)").arg(known.join(QLatin1String(", "))));
    }
}

QString JsonFieldReader::childPath(const QString &key, qsizetype index) const
{
    const QString base = m_path.isEmpty() ? key : m_path + QLatin1Char('.') + key;
    return base + QLatin1Char('[') + QString::number(index) + QLatin1Char(']');
}

QString JsonFieldReader::string(const QString &key, const QString &fallback)
{
    if (!present(key))
        return fallback;
    const QJsonValue value = m_object.value(key);
    if (!value.isString()) {
        fail(key, tr("expected text"));
        return fallback;
    }
    return value.toString();
}

QString JsonFieldReader::requiredString(const QString &key)
{
    if (!present(key)) {
        fail(key, tr("missing"));
        return {};
    }
    return string(key);
}

int JsonFieldReader::integer(const QString &key, int fallback)
{
    if (!present(key))
        return fallback;
    const QJsonValue value = m_object.value(key);
    const double number = value.toDouble();
    if (!value.isDouble() || !std::isfinite(number) || number != std::trunc(number)) {
        fail(key, tr("expected a whole number"));
        return fallback;
    }
    // Checked before the cast: a double beyond int's range has no int (undefined behaviour).
    if (number < double(std::numeric_limits<int>::min())
        || number > double(std::numeric_limits<int>::max())) {
        fail(key, tr("%1 is out of range (at most %2)")
                      .arg(value.toDouble(), 0, 'g', 17)
                      .arg(std::numeric_limits<int>::max()));
        return fallback;
    }
    return static_cast<int>(number);
}

double JsonFieldReader::number(const QString &key, double fallback)
{
    if (!present(key))
        return fallback;
    const QJsonValue value = m_object.value(key);
    if (!value.isDouble() || !std::isfinite(value.toDouble())) {
        fail(key, tr("expected a number"));
        return fallback;
    }
    return value.toDouble();
}

bool JsonFieldReader::boolean(const QString &key, bool fallback)
{
    if (!present(key))
        return fallback;
    const QJsonValue value = m_object.value(key);
    if (!value.isBool()) {
        fail(key, tr("expected true or false"));
        return fallback;
    }
    return value.toBool();
}

QJsonObject JsonFieldReader::object(const QString &key)
{
    if (!present(key))
        return {};
    const QJsonValue value = m_object.value(key);
    if (!value.isObject())
        fail(key, tr("expected an object"));
    return value.toObject();
}

QJsonArray JsonFieldReader::array(const QString &key)
{
    if (!present(key))
        return {};
    const QJsonValue value = m_object.value(key);
    if (!value.isArray())
        fail(key, tr("expected a list"));
    return value.toArray();
}

QStringList JsonFieldReader::stringList(const QString &key)
{
    QStringList strings;
    for (const QJsonValue value : array(key)) {
        if (!value.isString()) {
            fail(key, tr("expected a list of text"));
            return {};
        }
        strings << value.toString();
    }
    return strings;
}

QDateTime JsonFieldReader::time(const QString &key)
{
    const QString text = string(key);
    if (text.isEmpty())
        return {};
    const QDateTime parsed = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!parsed.isValid())
        fail(key, tr("'%1' is not an ISO 8601 time").arg(text));
    return parsed.toUTC();
}

} // namespace hg
