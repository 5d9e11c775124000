#pragma once

#include <QJsonObject>
#include <QWidget>

class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QTableWidget;

namespace hg {

// An HTTP task: URL (the task's command), method, headers, body and the expected status,
// written as the task's one JSON argument (HttpRequestSpec reads it back).
class HttpRequestForm final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpRequestForm)

public:
    explicit HttpRequestForm(QWidget *parent = nullptr);

    void show(const QString &url, const QJsonObject &request);
    QString url() const;
    QJsonObject request() const;

Q_SIGNALS:
    void changed();

private:
    QLineEdit *m_url;
    QComboBox *m_method;
    QTableWidget *m_headers;
    QPlainTextEdit *m_body;
    QLineEdit *m_expect;
};

} // namespace hg
