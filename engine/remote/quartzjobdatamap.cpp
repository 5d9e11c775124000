#include "quartzjobdatamap.h"

#include <QHash>
#include <QtEndian>

#include <algorithm>
#include <cstring>
#include <functional>

namespace hg {
namespace {

// Java Object Serialization Stream Protocol constants (java.io.ObjectStreamConstants).
constexpr quint16 streamMagic = 0xACED;
constexpr quint16 streamVersion = 5;
constexpr char tcNull = 0x70;
constexpr char tcReference = 0x71;
constexpr char tcClassDesc = 0x72;
constexpr char tcObject = 0x73;
constexpr char tcString = 0x74;
constexpr char tcBlockData = 0x77;
constexpr char tcEndBlockData = 0x78;
constexpr char tcLongString = 0x7C;
constexpr char scWriteMethod = 0x01;
constexpr char scSerializable = 0x02;
constexpr quint32 baseHandle = 0x7E0000;

// The serialVersionUIDs of the classes in the graph (Quartz 2.3, OpenJDK).
constexpr quint64 jobDataMapUid = 0x9FB083E8BFA9B0CBULL;
constexpr quint64 stringKeyDirtyFlagMapUid = 0x8208E8C3FBC55D28ULL;
constexpr quint64 dirtyFlagMapUid = 0x13E62EAD28760ACEULL;
constexpr quint64 hashMapUid = 0x0507DAC1C31660D1ULL;
constexpr quint64 integerUid = 0x12E2A0A4F7818738ULL;
constexpr quint64 numberUid = 0x86AC951D0B94E08BULL;

// What DirtyFlagMap's HashMap holds after JobDataMap's constructor (initial capacity 15):
// 16 buckets; the threshold field is 16 until the first put allocates the table, 12 after.
constexpr qint32 buckets = 16;

class Writer
{
public:
    QByteArray bytes;

    void u8(char value) { bytes.append(value); }
    void u16(quint16 value)
    {
        const quint16 big = qToBigEndian(value);
        bytes.append(reinterpret_cast<const char *>(&big), 2);
    }
    void u32(quint32 value)
    {
        const quint32 big = qToBigEndian(value);
        bytes.append(reinterpret_cast<const char *>(&big), 4);
    }
    void u64(quint64 value)
    {
        const quint64 big = qToBigEndian(value);
        bytes.append(reinterpret_cast<const char *>(&big), 8);
    }
    // Java's modified UTF-8, which equals UTF-8 for the names used here (no NUL, nothing
    // beyond the Basic Multilingual Plane).
    void utf(const QString &text)
    {
        const QByteArray utf8 = text.toUtf8();
        u16(quint16(utf8.size()));
        bytes.append(utf8);
    }
    // A new object, class descriptor or string takes the next handle.
    quint32 newHandle() { return baseHandle + m_handles++; }
    quint32 string(const QString &text)
    {
        const QByteArray utf8 = text.toUtf8();
        if (utf8.size() > 0xFFFF) { // writeLongUTF
            u8(tcLongString);
            u64(quint64(utf8.size()));
            bytes.append(utf8);
        } else {
            u8(tcString);
            utf(text);
        }
        return newHandle();
    }
    void reference(quint32 handle)
    {
        u8(tcReference);
        u32(handle);
    }

private:
    quint32 m_handles = 0;
};

struct Field
{
    char type; // 'Z' boolean, 'I' int, 'F' float, 'L' object
    const char *name;
    const char *className; // for 'L': its type as a JVM signature
};

// Writes a class descriptor (or a reference to one written before) and returns its handle.
quint32 classDesc(Writer &w, const char *name, quint64 uid, char flags,
                  std::initializer_list<Field> fields, QHash<QString, quint32> &written,
                  const std::function<void()> &superclass)
{
    const QString key = QString::fromLatin1(name);
    if (written.contains(key)) {
        w.reference(written.value(key));
        return written.value(key);
    }
    w.u8(tcClassDesc);
    w.utf(key);
    w.u64(uid);
    const quint32 handle = w.newHandle();
    written.insert(key, handle);
    w.u8(flags);
    w.u16(quint16(fields.size()));
    for (const Field &field : fields) {
        w.u8(field.type);
        w.utf(QString::fromLatin1(field.name));
        if (field.type == 'L') {
            const QString type = QString::fromLatin1(field.className);
            if (written.contains(type))
                w.reference(written.value(type));
            else
                written.insert(type, w.string(type));
        }
    }
    w.u8(tcEndBlockData); // no class annotation
    superclass();
    return handle;
}

} // namespace

qint32 QuartzJobDataMap::javaHashCode(const QString &text)
{
    quint32 hash = 0;
    for (const QChar c : text)
        hash = 31 * hash + c.unicode();
    return qint32(hash);
}

QByteArray QuartzJobDataMap::serialize(const QList<Entry> &entries)
{
    Writer w;
    QHash<QString, quint32> written;
    w.u16(streamMagic);
    w.u16(streamVersion);
    w.u8(tcObject);
    classDesc(w, "org.quartz.JobDataMap", jobDataMapUid, scSerializable, {}, written, [&] {
        classDesc(w, "org.quartz.utils.StringKeyDirtyFlagMap", stringKeyDirtyFlagMapUid,
                  scSerializable, {{'Z', "allowsTransientData", nullptr}}, written, [&] {
                      classDesc(w, "org.quartz.utils.DirtyFlagMap", dirtyFlagMapUid, scSerializable,
                                {{'Z', "dirty", nullptr}, {'L', "map", "Ljava/util/Map;"}}, written,
                                [&] { w.u8(tcNull); });
                  });
    });
    w.newHandle(); // the JobDataMap object itself

    // Class data, from the topmost serializable class down. DirtyFlagMap: dirty, then map.
    w.u8(entries.isEmpty() ? 0 : 1);
    w.u8(tcObject);
    classDesc(w, "java.util.HashMap", hashMapUid, char(scSerializable | scWriteMethod),
              {{'F', "loadFactor", nullptr}, {'I', "threshold", nullptr}}, written,
              [&] { w.u8(tcNull); });
    w.newHandle(); // the HashMap object
    const float loadFactor = 0.75F;
    quint32 loadFactorBits = 0;
    std::memcpy(&loadFactorBits, &loadFactor, sizeof loadFactorBits);
    w.u32(loadFactorBits);
    w.u32(entries.isEmpty() ? 16 : 12);
    // HashMap.writeObject: its bucket count and size as block data, then its entries in
    // bucket order ((h ^ h >>> 16) & 15), and in one bucket in the order they were put.
    w.u8(tcBlockData);
    w.u8(8);
    w.u32(quint32(buckets));
    w.u32(quint32(entries.size()));
    QList<Entry> ordered = entries;
    const auto bucket = [](const QString &key) {
        const quint32 h = quint32(javaHashCode(key));
        return (h ^ (h >> 16)) & quint32(buckets - 1);
    };
    std::stable_sort(ordered.begin(), ordered.end(), [&](const Entry &a, const Entry &b) {
        return bucket(a.first) < bucket(b.first);
    });
    quint32 integerClass = 0;
    QHash<int, quint32> cachedIntegers; // Integer.valueOf shares one object for -128..127
    for (const Entry &entry : std::as_const(ordered)) {
        w.string(entry.first);
        if (entry.second.typeId() == QMetaType::QString) {
            w.string(entry.second.toString());
            continue;
        }
        const int value = entry.second.toInt();
        if (cachedIntegers.contains(value)) {
            w.reference(cachedIntegers.value(value));
            continue;
        }
        w.u8(tcObject);
        if (integerClass != 0) {
            w.reference(integerClass);
        } else {
            integerClass = classDesc(w, "java.lang.Integer", integerUid, scSerializable,
                                     {{'I', "value", nullptr}}, written, [&] {
                                         classDesc(w, "java.lang.Number", numberUid, scSerializable,
                                                   {}, written, [&] { w.u8(tcNull); });
                                     });
        }
        const quint32 object = w.newHandle();
        if (value >= -128 && value <= 127)
            cachedIntegers.insert(value, object);
        w.u32(quint32(value));
    }
    w.u8(tcEndBlockData);
    // StringKeyDirtyFlagMap: allowsTransientData (false: JobDataMap's default).
    w.u8(0);
    return w.bytes;
}

} // namespace hg
