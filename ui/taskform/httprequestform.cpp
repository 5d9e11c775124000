#include "httprequestform.h"

#include "common/tableavesfield.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace hg {

HttpRequestForm::HttpRequestForm(QWidget *parent)
    : QWidget(parent)
    , m_url(new QLineEdit(this))
    , m_method(new QComboBox(this))
    , m_headers(new QTableWidget(0, 2, this))
    , m_body(new QPlainTextEdit(this))
    , m_expect(new QLineEdit(this))
{
    m_url->setObjectName(QStringLiteral("http.url"));
    m_url->setPlaceholderText(QStringLiteral("https://example.org/hook"));
    m_method->addItems({QStringLiteral("GET"), QStringLiteral("POST"), QStringLiteral("PUT"),
                        QStringLiteral("PATCH"), QStringLiteral("DELETE"), QStringLiteral("HEAD")});
    m_method->setEditable(true);
    m_headers->setTabKeyNavigation(false); // Tab leaves the table; arrows move inside
    m_headers->setHorizontalHeaderLabels({tr("Header"), tr("Value")});
    m_headers->horizontalHeader()->setStretchLastSection(true);
    m_headers->verticalHeader()->hide();
    m_headers->setMaximumHeight(110);
    m_body->setMaximumHeight(90);
    TabLeavesField::install(m_body);
    m_body->setPlaceholderText(tr("Request body (optional)"));
    m_expect->setPlaceholderText(tr("2xx; or a list: 200, 201"));

    auto *headerButtons = new QVBoxLayout;
    auto *add = new QToolButton(this);
    add->setText(QStringLiteral("+"));
    add->setAutoRaise(true);
    auto *remove = new QToolButton(this);
    remove->setText(QStringLiteral("−"));
    remove->setAutoRaise(true);
    headerButtons->addWidget(add);
    headerButtons->addWidget(remove);
    headerButtons->addStretch();
    auto *headerRow = new QHBoxLayout;
    headerRow->addWidget(m_headers, 1);
    headerRow->addLayout(headerButtons);

    auto *form = new QFormLayout(this);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("URL:"), m_url);
    form->addRow(tr("Method:"), m_method);
    form->addRow(tr("Headers:"), headerRow);
    form->addRow(tr("Body:"), m_body);
    form->addRow(tr("Expect status:"), m_expect);

    connect(add, &QToolButton::clicked, this, [this] {
        m_headers->insertRow(m_headers->rowCount());
        m_headers->setCurrentCell(m_headers->rowCount() - 1, 0);
    });
    connect(remove, &QToolButton::clicked, this, [this] {
        m_headers->removeRow(m_headers->currentRow());
        Q_EMIT changed();
    });
    connect(m_url, &QLineEdit::textEdited, this, &HttpRequestForm::changed);
    connect(m_method, &QComboBox::currentTextChanged, this, &HttpRequestForm::changed);
    connect(m_headers, &QTableWidget::itemChanged, this, &HttpRequestForm::changed);
    connect(m_body, &QPlainTextEdit::textChanged, this, &HttpRequestForm::changed);
    connect(m_expect, &QLineEdit::textEdited, this, &HttpRequestForm::changed);
}

void HttpRequestForm::show(const QString &url, const QJsonObject &request)
{
    const QSignalBlocker a(m_method), b(m_headers), c(m_body);
    m_url->setText(url.isEmpty() ? request.value(QLatin1String("url")).toString() : url);
    m_method->setCurrentText(
        request.value(QLatin1String("method")).toString(QStringLiteral("GET")));
    const QJsonObject headers = request.value(QLatin1String("headers")).toObject();
    m_headers->setRowCount(0);
    for (auto it = headers.begin(); it != headers.end(); ++it) {
        const int row = m_headers->rowCount();
        m_headers->insertRow(row);
        m_headers->setItem(row, 0, new QTableWidgetItem(it.key()));
        m_headers->setItem(row, 1, new QTableWidgetItem(it.value().toString()));
    }
    m_body->setPlainText(request.value(QLatin1String("body")).toString());
    const QJsonValue expect = request.value(QLatin1String("expect_status"));
    QStringList statuses;
    if (expect.isArray()) {
        for (const QJsonValue status : expect.toArray())
            statuses << QString::number(status.toInt());
    } else if (expect.isDouble()) {
        statuses << QString::number(expect.toInt());
    }
    m_expect->setText(statuses.join(QLatin1String(", ")));
}

QString HttpRequestForm::url() const
{
    return m_url->text().trimmed();
}

QJsonObject HttpRequestForm::request() const
{
    QJsonObject request;
    if (m_method->currentText() != QLatin1String("GET"))
        request.insert(QStringLiteral("method"), m_method->currentText().trimmed().toUpper());
    QJsonObject headers;
    for (int row = 0; row < m_headers->rowCount(); ++row) {
        const QTableWidgetItem *name = m_headers->item(row, 0);
        const QTableWidgetItem *value = m_headers->item(row, 1);
        if (name && !name->text().trimmed().isEmpty())
            headers.insert(name->text().trimmed(), value ? value->text() : QString());
    }
    if (!headers.isEmpty())
        request.insert(QStringLiteral("headers"), headers);
    if (!m_body->toPlainText().isEmpty())
        request.insert(QStringLiteral("body"), m_body->toPlainText());
    // Left as typed when it is not a list of numbers, so validation names the mistake.
    const QStringList parts = m_expect->text().split(QLatin1Char(','), Qt::SkipEmptyParts);
    QJsonArray statuses;
    for (const QString &part : parts) {
        bool ok = false;
        const int status = part.trimmed().toInt(&ok);
        if (ok)
            statuses << status;
        else
            statuses << part.trimmed();
    }
    if (statuses.size() == 1)
        request.insert(QStringLiteral("expect_status"), statuses.at(0));
    else if (!statuses.isEmpty())
        request.insert(QStringLiteral("expect_status"), statuses);
    return request;
}

} // namespace hg
