#pragma once

#include "domain/connectionprofile.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace hg {

class Store;

// Adds or edits one connection: name, kind, URL (never with a password) and a password that
// goes only to the OS keychain (or ~/.pgpass, ~/.my.cnf). Test connects off the GUI thread
// with what is typed, saved or not, and shows what it found or why not.
class ConnectionDialog final : public QDialog
{
    Q_OBJECT

public:
    // `existing` empty: a new connection.
    ConnectionDialog(Store &store, const QString &existing, QWidget *parent = nullptr);

    QString resultText() const;
    void test();
    bool isTesting() const { return m_testing; }

private:
    // The profile the fields describe; false (with the error shown) when they do not.
    bool profileFromFields(ConnectionProfile &profile);
    void save();
    void showResult(const QString &text, bool error);

    Store &m_store;
    ConnectionProfile m_original;
    QLineEdit *m_name = nullptr;
    QComboBox *m_kind = nullptr;
    QLineEdit *m_url = nullptr;
    QLineEdit *m_password = nullptr;
    QLabel *m_result = nullptr;
    QPushButton *m_test = nullptr;
    bool m_testing = false;
};

} // namespace hg
