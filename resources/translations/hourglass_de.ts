<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de" sourcelanguage="en">
<context>
    <name>hg::AlertRepository</name>
    <message>
        <source>read the alert rules</source>
        <translation>Alarmregeln lesen</translation>
    </message>
    <message>
        <source>save the alert rules</source>
        <translation>Alarmregeln speichern</translation>
    </message>
    <message>
        <source>record an alert</source>
        <translation>Alarm festhalten</translation>
    </message>
    <message>
        <source>read the alerts</source>
        <translation>Alarme lesen</translation>
    </message>
    <message>
        <source>read the chain&apos;s run durations</source>
        <translation>Laufdauern der Kette lesen</translation>
    </message>
    <message>
        <source>read the chain&apos;s runs</source>
        <translation>Läufe der Kette lesen</translation>
    </message>
</context>
<context>
    <name>hg::AlertRulesValidator</name>
    <message>
        <source>alert limits must not be negative</source>
        <translation>Alarmgrenzen dürfen nicht negativ sein</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a time zone</source>
        <translation>&apos;%1&apos; ist keine Zeitzone</translation>
    </message>
</context>
<context>
    <name>hg::AlertWatch</name>
    <message>
        <source>more than %1</source>
        <translation>mehr als %1</translation>
    </message>
    <message>
        <source>less than %1</source>
        <translation>weniger als %1</translation>
    </message>
    <message>
        <source>more than %1x the median of the last %2 runs (%3)</source>
        <translation>mehr als das %1-Fache des Medians der letzten %2 Läufe (%3)</translation>
    </message>
    <message>
        <source>less than %1x the median of the last %2 runs (%3)</source>
        <translation>weniger als das %1-Fache des Medians der letzten %2 Läufe (%3)</translation>
    </message>
    <message>
        <source>started %1 after its fire time (limit %2)</source>
        <translation>startete %1 nach seiner Auslösezeit (Grenze %2)</translation>
    </message>
    <message>
        <source>ran %1, %2</source>
        <translation>lief %1, %2</translation>
    </message>
    <message>
        <source>running for %1, %2</source>
        <translation>läuft seit %1, %2</translation>
    </message>
    <message>
        <source>no run succeeded in the 24 hours before its deadline (%1)</source>
        <translation>kein Lauf war in den 24 Stunden vor der Frist erfolgreich (%1)</translation>
    </message>
    <message>
        <source>started %1 after its trigger fired (limit %2)</source>
        <translation>%1 nach dem Auslösen seines Auslösers gestartet (Grenze %2)</translation>
    </message>
</context>
<context>
    <name>hg::AlertsDialog</name>
    <message>
        <source>%1x the median</source>
        <translation>%1-Faches des Medians</translation>
    </message>
    <message>
        <source>Alerts</source>
        <translation>Alarme</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>none; 0 7 * * 1-5 is by 07:00 on weekdays</source>
        <translation>keine; 0 7 * * 1-5 heißt werktags bis 07:00</translation>
    </message>
    <message>
        <source>Started &amp;late by more than:</source>
        <translation>&amp;Verspäteter Start um mehr als:</translation>
    </message>
    <message>
        <source>A run &amp;longer than:</source>
        <translation>Ein Lauf &amp;länger als:</translation>
    </message>
    <message>
        <source>A success &amp;shorter than:</source>
        <translation>Ein Erfolg &amp;kürzer als:</translation>
    </message>
    <message>
        <source>Succeeded by (&amp;cron):</source>
        <translation>Erfolgreich bis (&amp;cron):</translation>
    </message>
    <message>
        <source>Deadline&apos;s time &amp;zone:</source>
        <translation>&amp;Zeitzone der Frist:</translation>
    </message>
    <message>
        <source>A factor compares with the median of the chain&apos;s last 20 succeeded runs, once it has five. A deadline wants a run that succeeded in the 24 hours before it. An alert marks the run, enters the chain&apos;s history and is told as a failure is.</source>
        <translation>Ein Faktor vergleicht mit dem Median der letzten 20 erfolgreichen Läufe der Kette, sobald es fünf gibt. Eine Frist verlangt einen Lauf, der in den 24 Stunden davor erfolgreich war. Ein Alarm markiert den Lauf, kommt in den Verlauf der Kette und wird gemeldet wie ein Fehlschlag.</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>minutes</source>
        <translation>Minuten</translation>
    </message>
    <message>
        <source>hours</source>
        <translation>Stunden</translation>
    </message>
    <message>
        <source>× the median</source>
        <translation>× Median</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>Einheit</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a time zone.</source>
        <translation>&apos;%1&apos; ist keine Zeitzone.</translation>
    </message>
    <message>
        <source>The deadline: %1</source>
        <translation>Die Frist: %1</translation>
    </message>
    <message>
        <source>late by &gt; %1</source>
        <translation>verspätet um &gt; %1</translation>
    </message>
    <message>
        <source>longer than %1</source>
        <translation>länger als %1</translation>
    </message>
    <message>
        <source>shorter than %1</source>
        <translation>kürzer als %1</translation>
    </message>
    <message>
        <source>Alerts: none</source>
        <translation>Alarme: keine</translation>
    </message>
    <message>
        <source>Alerts: %1</source>
        <translation>Alarme: %1</translation>
    </message>
    <message>
        <source>succeeded by %1 (%2)</source>
        <translation>erfolgreich bis %1 (%2)</translation>
    </message>
</context>
<context>
    <name>hg::ApiAdmin</name>
    <message>
        <source>role must be one of %1</source>
        <translation>role muss eines von %1 sein</translation>
    </message>
    <message>
        <source>expires must be an ISO 8601 time to come</source>
        <translation>expires muss eine künftige ISO-8601-Zeit sein</translation>
    </message>
    <message>
        <source>chain needs project</source>
        <translation>chain braucht project</translation>
    </message>
</context>
<context>
    <name>hg::ApiAnswers</name>
    <message>
        <source>the body is not JSON: %1 at byte %2</source>
        <translation>der Inhalt ist kein JSON: %1 bei Byte %2</translation>
    </message>
    <message>
        <source>the body is not a JSON object</source>
        <translation>der Inhalt ist kein JSON-Objekt</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a run id</source>
        <translation>&apos;%1&apos; ist keine Lauf-ID</translation>
    </message>
    <message>
        <source>%1 must be %2</source>
        <translation>%1 muss %2 sein</translation>
    </message>
    <message>
        <source>unknown field &apos;%1&apos; (known: %2)</source>
        <translation>unbekanntes Feld &apos;%1&apos; (bekannt: %2)</translation>
    </message>
    <message>
        <source>a parameter&apos;s name is not empty and does not begin with &apos;trigger.&apos;</source>
        <translation>der Name eines Parameters ist nicht leer und beginnt nicht mit &apos;trigger.&apos;</translation>
    </message>
    <message>
        <source>a parameter is a string, a number or a boolean</source>
        <translation>ein Parameter ist eine Zeichenkette, eine Zahl oder ein Wahrheitswert</translation>
    </message>
</context>
<context>
    <name>hg::ApiAuthGate</name>
    <message numerus="yes">
        <source>%n failed authentication(s) from %1 in the last minute</source>
        <translation>
            <numerusform>%n fehlgeschlagene Anmeldung von %1 in der letzten Minute</numerusform>
            <numerusform>%n fehlgeschlagene Anmeldungen von %1 in der letzten Minute</numerusform>
        </translation>
    </message>
    <message>
        <source>too many failed authentications from this address; try again later</source>
        <translation>zu viele fehlgeschlagene Anmeldungen von dieser Adresse; später erneut versuchen</translation>
    </message>
    <message>
        <source>no token: send Authorization: Bearer TOKEN</source>
        <translation>kein Token: Authorization: Bearer TOKEN senden</translation>
    </message>
    <message>
        <source>the Authorization header is not a Bearer token</source>
        <translation>der Authorization-Header ist kein Bearer-Token</translation>
    </message>
    <message>
        <source>the store cannot be read: %1</source>
        <translation>der Speicher kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>the token is not known or has expired</source>
        <translation>das Token ist unbekannt oder abgelaufen</translation>
    </message>
    <message>
        <source>token &apos;%1&apos; is %2; this needs %3</source>
        <translation>Token &apos;%1&apos; hat die Rolle %2; hierfür ist %3 nötig</translation>
    </message>
    <message>
        <source>failed authentication from %1: %2</source>
        <translation>fehlgeschlagene Anmeldung von %1: %2</translation>
    </message>
</context>
<context>
    <name>hg::ApiControls</name>
    <message>
        <source>run %1 has already ended (%2)</source>
        <translation>Lauf %1 ist bereits beendet (%2)</translation>
    </message>
    <message>
        <source>run %1 has not ended yet (%2)</source>
        <translation>Lauf %1 ist noch nicht beendet (%2)</translation>
    </message>
    <message>
        <source>choice must be run-all, run-latest or dismiss</source>
        <translation>choice muss run-all, run-latest oder dismiss sein</translation>
    </message>
    <message>
        <source>parallel must be a whole number from 1 to 1000</source>
        <translation>parallel muss eine ganze Zahl von 1 bis 1000 sein</translation>
    </message>
    <message>
        <source>no missed runs of %1 wait for a decision</source>
        <translation>keine verpassten Läufe von %1 warten auf eine Entscheidung</translation>
    </message>
    <message>
        <source>run %1 is not paused (%2)</source>
        <translation>Lauf %1 ist nicht pausiert (%2)</translation>
    </message>
    <message>
        <source>run %1 is paused already</source>
        <translation>Lauf %1 ist bereits pausiert</translation>
    </message>
</context>
<context>
    <name>hg::ApiHooks</name>
    <message>
        <source>a hook is called with POST</source>
        <translation>ein Hook wird mit POST aufgerufen</translation>
    </message>
    <message>
        <source>the store cannot be read: %1</source>
        <translation>der Speicher kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>no such hook</source>
        <translation>kein solcher Hook</translation>
    </message>
    <message>
        <source>no signature: send X-Hourglass-Signature: sha256=&lt;hex HMAC-SHA256 of the body&gt;</source>
        <translation>keine Signatur: X-Hourglass-Signature: sha256=&lt;hex HMAC-SHA256 des Inhalts&gt; senden</translation>
    </message>
    <message>
        <source>the hook&apos;s secret cannot be read on this machine: %1</source>
        <translation>das Geheimnis des Hooks kann auf diesem Rechner nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>the signature does not match the body</source>
        <translation>die Signatur passt nicht zum Inhalt</translation>
    </message>
    <message>
        <source>trigger %1 is paused (`hourglass trigger resume %1`)</source>
        <translation>Auslöser %1 ist pausiert (`hourglass trigger resume %1`)</translation>
    </message>
    <message>
        <source>X-Hourglass-Delivery is 1 to 200 printable ASCII characters</source>
        <translation>X-Hourglass-Delivery besteht aus 1 bis 200 druckbaren ASCII-Zeichen</translation>
    </message>
    <message>
        <source>no secret is kept for hook %1</source>
        <translation>für Hook %1 ist kein Geheimnis hinterlegt</translation>
    </message>
    <message>
        <source>%1 is disabled</source>
        <translation>%1 ist deaktiviert</translation>
    </message>
    <message>
        <source>start a run of a webhook</source>
        <translation>einen Lauf eines Webhooks starten</translation>
    </message>
    <message>
        <source>read a webhook&apos;s run</source>
        <translation>den Lauf eines Webhooks lesen</translation>
    </message>
    <message>
        <source>the run went away</source>
        <translation>der Lauf ist verschwunden</translation>
    </message>
    <message>
        <source>webhook delivery %1</source>
        <translation>Webhook-Zustellung %1</translation>
    </message>
</context>
<context>
    <name>hg::ApiListenerRepository</name>
    <message>
        <source>note where the API listens</source>
        <translation>vermerken, wo die API lauscht</translation>
    </message>
    <message>
        <source>note the API&apos;s requests</source>
        <translation>die Anfragen der API vermerken</translation>
    </message>
    <message>
        <source>note that the API stopped</source>
        <translation>vermerken, dass die API angehalten hat</translation>
    </message>
    <message>
        <source>forget API servers gone a day</source>
        <translation>seit einem Tag verschwundene API-Server vergessen</translation>
    </message>
    <message>
        <source>list the API servers</source>
        <translation>die API-Server auflisten</translation>
    </message>
</context>
<context>
    <name>hg::ApiLogFollower</name>
    <message>
        <source>the reader fell too far behind</source>
        <translation>der Leser ist zu weit zurückgefallen</translation>
    </message>
    <message>
        <source>the token was removed or has expired</source>
        <translation>das Token wurde entfernt oder ist abgelaufen</translation>
    </message>
</context>
<context>
    <name>hg::ApiMetrics</name>
    <message>
        <source>Runs ended since this engine started, by chain and final state.</source>
        <translation>Seit dem Start dieser Engine beendete Läufe, nach Kette und Endzustand.</translation>
    </message>
    <message>
        <source>How long runs took from start to end, by chain.</source>
        <translation>Wie lange Läufe vom Start bis zum Ende dauerten, nach Kette.</translation>
    </message>
    <message>
        <source>How long task attempts took from start to end.</source>
        <translation>Wie lange Aufgabenversuche vom Start bis zum Ende dauerten.</translation>
    </message>
    <message>
        <source>How late scheduled runs started after their fire time.</source>
        <translation>Wie spät geplante Läufe nach ihrem Auslösezeitpunkt starteten.</translation>
    </message>
    <message>
        <source>API requests answered since start, by status code.</source>
        <translation>Seit dem Start beantwortete API-Anfragen, nach Statuscode.</translation>
    </message>
    <message>
        <source>count active runs</source>
        <translation>aktive Läufe zählen</translation>
    </message>
    <message>
        <source>1 when the store answered this scrape, 0 when it could not be read.</source>
        <translation>1, wenn der Speicher bei dieser Abfrage antwortete, 0, wenn er nicht gelesen werden konnte.</translation>
    </message>
    <message>
        <source>Runs not ended, by state.</source>
        <translation>Nicht beendete Läufe, nach Zustand.</translation>
    </message>
    <message>
        <source>Missed fires waiting in the inbox for a decision.</source>
        <translation>Verpasste Auslösungen, die im Eingang auf eine Entscheidung warten.</translation>
    </message>
    <message>
        <source>count notifications</source>
        <translation>Benachrichtigungen zählen</translation>
    </message>
    <message>
        <source>Notifications waiting to be sent (queued or held by flood control).</source>
        <translation>Benachrichtigungen, die auf den Versand warten (eingereiht oder von der Flutbremse gehalten).</translation>
    </message>
    <message>
        <source>Notifications that failed for good and are kept in the outbox.</source>
        <translation>Endgültig fehlgeschlagene Benachrichtigungen, die im Ausgang bleiben.</translation>
    </message>
    <message>
        <source>Chains defined in the store.</source>
        <translation>Im Speicher definierte Ketten.</translation>
    </message>
    <message>
        <source>count chains</source>
        <translation>Ketten zählen</translation>
    </message>
    <message>
        <source>1 for each engine whose lease is current, by name.</source>
        <translation>1 für jede Engine, deren Lease gültig ist, nach Name.</translation>
    </message>
    <message>
        <source>Seconds since each engine&apos;s last heartbeat.</source>
        <translation>Sekunden seit dem letzten Herzschlag jeder Engine.</translation>
    </message>
</context>
<context>
    <name>hg::ApiReads</name>
    <message>
        <source>limit must be 1 to %1</source>
        <translation>limit muss 1 bis %1 sein</translation>
    </message>
    <message>
        <source>%1 must be an ISO 8601 time or milliseconds since 1970</source>
        <translation>%1 muss eine ISO-8601-Zeit oder Millisekunden seit 1970 sein</translation>
    </message>
    <message>
        <source>state must be one of %1</source>
        <translation>state muss eines von %1 sein</translation>
    </message>
    <message>
        <source>before must be a run id</source>
        <translation>before muss eine Lauf-ID sein</translation>
    </message>
    <message>
        <source>after must be a line id</source>
        <translation>after muss eine Zeilen-ID sein</translation>
    </message>
    <message>
        <source>%1 logs are followed already (%2 by one token); try again later</source>
        <translation>%1 Protokolle werden bereits verfolgt (%2 mit einem Token); später erneut versuchen</translation>
    </message>
</context>
<context>
    <name>hg::ApiRequestKeyRepository</name>
    <message>
        <source>an idempotency key is 1 to 200 characters</source>
        <translation>ein Idempotenzschlüssel hat 1 bis 200 Zeichen</translation>
    </message>
    <message>
        <source>an idempotency key is printable ASCII</source>
        <translation>ein Idempotenzschlüssel besteht aus druckbarem ASCII</translation>
    </message>
    <message>
        <source>claim an idempotency key</source>
        <translation>einen Idempotenzschlüssel beanspruchen</translation>
    </message>
    <message>
        <source>read an idempotency key</source>
        <translation>einen Idempotenzschlüssel lesen</translation>
    </message>
    <message>
        <source>the key went away</source>
        <translation>der Schlüssel ist verschwunden</translation>
    </message>
    <message>
        <source>a request with this key is being answered</source>
        <translation>eine Anfrage mit diesem Schlüssel wird gerade beantwortet</translation>
    </message>
    <message>
        <source>note an idempotency key&apos;s run</source>
        <translation>den Lauf eines Idempotenzschlüssels vermerken</translation>
    </message>
    <message>
        <source>forget old idempotency keys</source>
        <translation>alte Idempotenzschlüssel vergessen</translation>
    </message>
</context>
<context>
    <name>hg::ApiServer</name>
    <message>
        <source>&apos;%1&apos; is not ADDRESS:PORT (127.0.0.1:8080, [::1]:8080, localhost:8080)</source>
        <translation>&apos;%1&apos; ist nicht ADRESSE:PORT (127.0.0.1:8080, [::1]:8080, localhost:8080)</translation>
    </message>
    <message>
        <source>--api-cert and --api-key go together</source>
        <translation>--api-cert und --api-key gehören zusammen</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 is not PEM</source>
        <translation>%1 ist kein PEM</translation>
    </message>
    <message>
        <source>%1 is reachable from other machines: give --api-cert and --api-key for HTTPS, or --api-insecure to send tokens in plain text</source>
        <translation>%1 ist von anderen Rechnern erreichbar: --api-cert und --api-key für HTTPS angeben oder --api-insecure, um Tokens im Klartext zu senden</translation>
    </message>
    <message>
        <source>the API serves plain HTTP on %1: tokens cross the network unencrypted</source>
        <translation>die API bedient unverschlüsseltes HTTP auf %1: Tokens gehen unverschlüsselt über das Netz</translation>
    </message>
    <message>
        <source>`hourglass api status` will not see this server: %1</source>
        <translation>`hourglass api status` wird diesen Server nicht sehen: %1</translation>
    </message>
    <message>
        <source>%1 is not a regular file</source>
        <translation>%1 ist keine gewöhnliche Datei</translation>
    </message>
</context>
<context>
    <name>hg::ApiService</name>
    <message>
        <source>the path holds a control character</source>
        <translation>der Pfad enthält ein Steuerzeichen</translation>
    </message>
    <message>
        <source>the OpenAPI document is not in this build</source>
        <translation>das OpenAPI-Dokument ist nicht in diesem Build</translation>
    </message>
    <message>
        <source>no endpoint %1 (GET /api/v1/openapi.json lists them)</source>
        <translation>kein Endpunkt %1 (GET /api/v1/openapi.json listet sie)</translation>
    </message>
    <message>
        <source>%1 is answered to %2 only</source>
        <translation>%1 wird nur auf %2 beantwortet</translation>
    </message>
    <message>
        <source>the path holds a NUL (%00)</source>
        <translation>der Pfad enthält ein NUL (%00)</translation>
    </message>
</context>
<context>
    <name>hg::ApiStatusButton</name>
    <message>
        <source>API: off</source>
        <translation>API: aus</translation>
    </message>
    <message>
        <source>The local API is off (Settings → Remote access).</source>
        <translation>Die lokale API ist aus (Einstellungen → Fernzugriff).</translation>
    </message>
    <message>
        <source>API: %1 — plain HTTP on the network</source>
        <translation>API: %1 — unverschlüsseltes HTTP im Netz</translation>
    </message>
    <message>
        <source>API: %1</source>
        <translation>API: %1</translation>
    </message>
    <message>
        <source>The local API serves plain HTTP on an address other machines reach: tokens cross the network unencrypted. Press to see the last requests.</source>
        <translation>Die lokale API bedient unverschlüsseltes HTTP auf einer Adresse, die andere Rechner erreichen: Tokens gehen unverschlüsselt über das Netz. Drücken, um die letzten Anfragen zu sehen.</translation>
    </message>
    <message>
        <source>The local API listens here. Press to see the last requests.</source>
        <translation>Die lokale API lauscht hier. Drücken, um die letzten Anfragen zu sehen.</translation>
    </message>
    <message>
        <source>API: not serving</source>
        <translation>API: nicht in Betrieb</translation>
    </message>
    <message>
        <source>Local API: the last requests</source>
        <translation>Lokale API: die letzten Anfragen</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Took</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
</context>
<context>
    <name>hg::ApiTokenRepository</name>
    <message>
        <source>a token&apos;s name is 1 to 100 characters</source>
        <translation>der Name eines Tokens hat 1 bis 100 Zeichen</translation>
    </message>
    <message>
        <source>a token&apos;s name holds no control characters</source>
        <translation>der Name eines Tokens enthält keine Steuerzeichen</translation>
    </message>
    <message>
        <source>add a token</source>
        <translation>ein Token hinzufügen</translation>
    </message>
    <message>
        <source>a token named &apos;%1&apos; exists (`hourglass token list`)</source>
        <translation>ein Token namens &apos;%1&apos; existiert (`hourglass token list`)</translation>
    </message>
    <message>
        <source>list the tokens</source>
        <translation>die Tokens auflisten</translation>
    </message>
    <message>
        <source>remove a token</source>
        <translation>ein Token entfernen</translation>
    </message>
    <message>
        <source>no token named &apos;%1&apos; (`hourglass token list` shows them)</source>
        <translation>kein Token namens &apos;%1&apos; (`hourglass token list` zeigt sie)</translation>
    </message>
    <message>
        <source>no such token</source>
        <translation>kein solches Token</translation>
    </message>
    <message>
        <source>check a token</source>
        <translation>ein Token prüfen</translation>
    </message>
    <message>
        <source>note a token&apos;s use</source>
        <translation>die Verwendung eines Tokens vermerken</translation>
    </message>
    <message>
        <source>a token&apos;s name has no slash and no space at either end</source>
        <translation>der Name eines Tokens hat keinen Schrägstrich und kein Leerzeichen am Anfang oder Ende</translation>
    </message>
</context>
<context>
    <name>hg::ArgumentListEditor</name>
    <message>
        <source>Add an argument</source>
        <translation>Argument hinzufügen</translation>
    </message>
    <message>
        <source>Remove the argument</source>
        <translation>Argument entfernen</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>Nach oben</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>Nach unten</translation>
    </message>
</context>
<context>
    <name>hg::Backfill</name>
    <message>
        <source>backfill: --from must not be after --to</source>
        <translation>Nachholen: --from darf nicht nach --to liegen</translation>
    </message>
    <message>
        <source>backfill: more than %1 fire times between %2 and %3; choose a shorter range</source>
        <translation>Nachholen: mehr als %1 Auslösezeiten zwischen %2 und %3; einen kürzeren Zeitraum wählen</translation>
    </message>
    <message>
        <source>backfill: chain &apos;%1&apos; has no fire times between %2 and %3 (only enabled cron, every and once schedules have fire times)</source>
        <translation>Nachholen: Kette „%1“ hat keine Auslösezeiten zwischen %2 und %3 (nur aktivierte Zeitpläne der Arten cron, every und once haben Auslösezeiten)</translation>
    </message>
    <message>
        <source>backfill: --parallel must be 1 or more</source>
        <translation>Nachholen: --parallel muss mindestens 1 sein</translation>
    </message>
</context>
<context>
    <name>hg::BackfillDialog</name>
    <message>
        <source>Backfill %1</source>
        <translation>%1 nachholen</translation>
    </message>
    <message>
        <source>one at a time</source>
        <translation>einer nach dem anderen</translation>
    </message>
    <message>
        <source>How many of the batch&apos;s runs may run at once</source>
        <translation>Wie viele Läufe des Stapels gleichzeitig laufen dürfen</translation>
    </message>
    <message>
        <source>Oldest first</source>
        <translation>Älteste zuerst</translation>
    </message>
    <message>
        <source>Newest first</source>
        <translation>Neueste zuerst</translation>
    </message>
    <message>
        <source>The fire times a run is queued for</source>
        <translation>Die Auslösezeiten, für die ein Lauf eingereiht wird</translation>
    </message>
    <message>
        <source>&amp;From:</source>
        <translation>&amp;Von:</translation>
    </message>
    <message>
        <source>&amp;To:</source>
        <translation>&amp;Bis:</translation>
    </message>
    <message>
        <source>&amp;At once:</source>
        <translation>&amp;Gleichzeitig:</translation>
    </message>
    <message>
        <source>&amp;Order:</source>
        <translation>&amp;Reihenfolge:</translation>
    </message>
    <message>
        <source>&amp;Queue runs</source>
        <translation>Läufe &amp;einreihen</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) of %1, %2, %3.</source>
        <translation>
            <numerusform>%n Lauf von %1, %2, %3.</numerusform>
            <numerusform>%n Läufe von %1, %2, %3.</numerusform>
        </translation>
    </message>
    <message>
        <source>newest first</source>
        <translation>neueste zuerst</translation>
    </message>
    <message>
        <source>oldest first</source>
        <translation>älteste zuerst</translation>
    </message>
    <message>
        <source>%1 at a time</source>
        <translation>%1 gleichzeitig</translation>
    </message>
    <message numerus="yes">
        <source>&amp;Queue %n run(s)</source>
        <translation>
            <numerusform>%n Lauf &amp;einreihen</numerusform>
            <numerusform>%n Läufe &amp;einreihen</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing was queued: %1</source>
        <translation>Nichts wurde eingereiht: %1</translation>
    </message>
</context>
<context>
    <name>hg::BuiltinArgumentForm</name>
    <message>
        <source>%1 takes no arguments.</source>
        <translation>%1 nimmt keine Argumente an.</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>(nicht gesetzt)</translation>
    </message>
    <message>
        <source>none: no login</source>
        <translation>keines: keine Anmeldung</translation>
    </message>
    <message>
        <source>kept in the keychain; type to replace it</source>
        <translation>im Schlüsselbund verwahrt; zum Ersetzen eintippen</translation>
    </message>
    <message>
        <source>SendMail password</source>
        <translation>SendMail-Passwort</translation>
    </message>
    <message>
        <source>not kept: %1</source>
        <translation>nicht verwahrt: %1</translation>
    </message>
    <message>
        <source>password:</source>
        <translation>Passwort:</translation>
    </message>
</context>
<context>
    <name>hg::BuiltinArguments</name>
    <message>
        <source>&apos;%1&apos; is not an absolute path</source>
        <translation>„%1“ ist kein absoluter Pfad</translation>
    </message>
    <message>
        <source>must be a number above 0 and at most 86400</source>
        <translation>muss eine Zahl über 0 und höchstens 86400 sein</translation>
    </message>
    <message>
        <source>unknown builtin &apos;%1&apos; (one of %2)</source>
        <translation>unbekannte integrierte Funktion „%1“ (eine von %2)</translation>
    </message>
    <message>
        <source>%1: the argument must be a JSON object, like %2</source>
        <translation>%1: das Argument muss ein JSON-Objekt sein, etwa %2</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an e-mail address</source>
        <translation>„%1“ ist keine E-Mail-Adresse</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not smtp://[USER@]HOST[:PORT]</source>
        <translation>„%1“ ist nicht smtp://[BENUTZER@]HOST[:PORT]</translation>
    </message>
    <message>
        <source>&apos;none&apos; sends the message and the password unencrypted: only to a server on this machine (localhost)</source>
        <translation>„none“ sendet Nachricht und Passwort unverschlüsselt: nur an einen Server auf diesem Rechner (localhost)</translation>
    </message>
    <message>
        <source>a message needs a recipient (to, cc or bcc)</source>
        <translation>eine Nachricht braucht einen Empfänger (to, cc oder bcc)</translation>
    </message>
    <message>
        <source>%1 recipients; 100 at most (a list server is the place for more)</source>
        <translation>%1 Empfänger; höchstens 100 (für mehr ist ein Listenserver da)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not text/plain or text/html</source>
        <translation>„%1“ ist weder text/plain noch text/html</translation>
    </message>
    <message>
        <source>expected {&quot;name&quot;: &quot;file name&quot;, &quot;base64&quot;: &quot;…&quot;}</source>
        <translation>erwartet {&quot;name&quot;: &quot;Dateiname&quot;, &quot;base64&quot;: &quot;…&quot;}</translation>
    </message>
    <message>
        <source>must be a COPY … FROM STDIN statement</source>
        <translation>muss eine Anweisung COPY … FROM STDIN sein</translation>
    </message>
    <message>
        <source>must be a COPY … TO STDOUT statement</source>
        <translation>muss eine Anweisung COPY … TO STDOUT sein</translation>
    </message>
    <message>
        <source>a password in the URL would be kept in the store in plain text; give it with task add --password-stdin</source>
        <translation>ein Passwort in der URL würde im Klartext im Speicher abgelegt; es mit task add --password-stdin angeben</translation>
    </message>
    <message>
        <source>names no program</source>
        <translation>nennt kein Programm</translation>
    </message>
    <message>
        <source>holds a NUL character</source>
        <translation>enthält ein NUL-Zeichen</translation>
    </message>
    <message>
        <source>names no SendMail password (give it with task add --password-stdin)</source>
        <translation>nennt kein SendMail-Passwort (mit task add --password-stdin angeben)</translation>
    </message>
</context>
<context>
    <name>hg::CalendarRepository</name>
    <message>
        <source>a calendar needs a name</source>
        <translation>ein Kalender braucht einen Namen</translation>
    </message>
    <message>
        <source>calendar &apos;%1&apos;: %2 to %3 is not a range of days</source>
        <translation>Kalender „%1“: %2 bis %3 ist kein Zeitraum von Tagen</translation>
    </message>
    <message>
        <source>calendar &apos;%1&apos; holds no day: give dates, weekends or an iCalendar file</source>
        <translation>Kalender „%1“ enthält keinen Tag: Daten, Wochenenden oder eine iCalendar-Datei angeben</translation>
    </message>
    <message>
        <source>add calendar</source>
        <translation>Hinzufügen des Kalenders</translation>
    </message>
    <message>
        <source>a calendar named &apos;%1&apos; exists</source>
        <translation>ein Kalender namens „%1“ existiert bereits</translation>
    </message>
    <message>
        <source>add calendar days</source>
        <translation>Hinzufügen der Kalendertage</translation>
    </message>
    <message>
        <source>read calendar days</source>
        <translation>Lesen der Kalendertage</translation>
    </message>
    <message>
        <source>read calendar</source>
        <translation>Lesen des Kalenders</translation>
    </message>
    <message>
        <source>no calendar named &apos;%1&apos;</source>
        <translation>kein Kalender namens „%1“</translation>
    </message>
    <message>
        <source>list calendars</source>
        <translation>Auflisten der Kalender</translation>
    </message>
    <message>
        <source>find the schedules using a calendar</source>
        <translation>Suchen der Zeitpläne, die einen Kalender nutzen</translation>
    </message>
    <message>
        <source>%1 (%2/%3)</source>
        <translation>%1 (%2/%3)</translation>
    </message>
    <message>
        <source>calendar &apos;%1&apos; is used by schedule %2: remove it from them first</source>
        <translation>Kalender „%1“ wird von Zeitplan %2 genutzt: ihn zuerst dort entfernen</translation>
    </message>
    <message>
        <source>remove calendar</source>
        <translation>Entfernen des Kalenders</translation>
    </message>
    <message>
        <source>unknown calendar %1</source>
        <translation>unbekannter Kalender %1</translation>
    </message>
</context>
<context>
    <name>hg::ChainEditor</name>
    <message>
        <source>Add &amp;task</source>
        <translation>Neue Auf&amp;gabe</translation>
    </message>
    <message>
        <source>Add &amp;schedule…</source>
        <translation>&amp;Zeitplan hinzufügen…</translation>
    </message>
    <message>
        <source>Auto &amp;layout</source>
        <translation>An&amp;ordnen</translation>
    </message>
    <message>
        <source>&amp;Fit</source>
        <translation>&amp;Einpassen</translation>
    </message>
    <message>
        <source>Chain canvas</source>
        <translation>Zeichenfläche der Kette</translation>
    </message>
    <message>
        <source>The chain&apos;s tasks and their dependencies</source>
        <translation>Die Aufgaben der Kette und ihre Abhängigkeiten</translation>
    </message>
    <message numerus="yes">
        <source>Move %n task(s)</source>
        <translation>
            <numerusform>%n Aufgabe verschieben</numerusform>
            <numerusform>%n Aufgaben verschieben</numerusform>
        </translation>
    </message>
    <message>
        <source>No chain selected</source>
        <translation>Keine Kette ausgewählt</translation>
    </message>
    <message>
        <source>task-%1</source>
        <translation>aufgabe-%1</translation>
    </message>
    <message>
        <source>Auto layout</source>
        <translation>Automatisch anordnen</translation>
    </message>
    <message>
        <source>Unapplied changes</source>
        <translation>Nicht übernommene Änderungen</translation>
    </message>
    <message>
        <source>The task “%1” has changes that are not applied.</source>
        <translation>Die Aufgabe „%1“ hat Änderungen, die nicht übernommen wurden.</translation>
    </message>
    <message>
        <source>Apply them before going on?</source>
        <translation>Vor dem Fortfahren übernehmen?</translation>
    </message>
    <message>
        <source>They cannot be applied as they are: %1</source>
        <translation>Sie können so nicht übernommen werden: %1</translation>
    </message>
    <message>
        <source>Delete task</source>
        <translation>Aufgabe löschen</translation>
    </message>
    <message>
        <source>Delete %1? %2 depend on it.</source>
        <translation>%1 löschen? Davon abhängig: %2.</translation>
    </message>
    <message>
        <source>Their dependencies on it are deleted too. Undo (Ctrl+Z) brings both back.</source>
        <translation>Deren Abhängigkeiten davon werden ebenfalls gelöscht. Rückgängig (Strg+Z) stellt beides wieder her.</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Löschen</translation>
    </message>
    <message>
        <source>&amp;Connect to…</source>
        <translation>&amp;Verbinden mit…</translation>
    </message>
    <message>
        <source>Drag from a task&apos;s right-hand port to another task to add a dependency (or Ctrl+K). Right-click an edge for its condition; Delete removes what is selected; arrows move between tasks, Enter edits one.</source>
        <translation>Vom rechten Anschluss einer Aufgabe auf eine andere Aufgabe ziehen, um eine Abhängigkeit hinzuzufügen (oder Strg+K). Rechtsklick auf eine Kante wählt ihre Bedingung; Entf entfernt die Auswahl; die Pfeiltasten wechseln zwischen Aufgaben, die Eingabetaste bearbeitet eine.</translation>
    </message>
    <message>
        <source>Select one task to connect from.</source>
        <translation>Eine Aufgabe auswählen, von der aus verbunden werden soll.</translation>
    </message>
    <message>
        <source>This chain has no tasks yet. Add its first task; then drag from one task&apos;s port to another to make it wait for that one.</source>
        <translation>Diese Kette hat noch keine Aufgaben. Fügen Sie die erste hinzu; ziehen Sie dann vom Anschluss einer Aufgabe zu einer anderen, damit diese auf jene wartet.</translation>
    </message>
    <message>
        <source>Add the first task</source>
        <translation>Erste Aufgabe hinzufügen</translation>
    </message>
</context>
<context>
    <name>hg::ChainFlowView</name>
    <message>
        <source>when it failed</source>
        <translation>wenn sie fehlschlug</translation>
    </message>
    <message>
        <source>when it finished</source>
        <translation>wenn sie endete</translation>
    </message>
    <message>
        <source>when it succeeded</source>
        <translation>wenn sie gelang</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>beendet</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>gelungen</translation>
    </message>
    <message>
        <source>Chains started by other chains</source>
        <translation>Ketten, die andere Ketten starten</translation>
    </message>
    <message>
        <source>Arrow keys move between chains; Enter or a double click opens one</source>
        <translation>Pfeiltasten wechseln zwischen Ketten; Eingabe oder ein Doppelklick öffnet eine</translation>
    </message>
    <message>
        <source>%1 — last run %2</source>
        <translation>%1 — letzter Lauf %2</translation>
    </message>
    <message>
        <source>%1 starts %2 %3%4</source>
        <translation>%1 startet %2, %3%4</translation>
    </message>
    <message>
        <source> (paused)</source>
        <translation> (pausiert)</translation>
    </message>
    <message numerus="yes">
        <source>%n more chain(s) linked by triggers are not drawn</source>
        <translation>
            <numerusform>%n weitere durch Auslöser verbundene Kette ist nicht gezeichnet</numerusform>
            <numerusform>%n weitere durch Auslöser verbundene Ketten sind nicht gezeichnet</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hg::ChainOccurrencesBox</name>
    <message>
        <source>Fire times, last 24 hours</source>
        <translation>Auslösezeiten der letzten 24 Stunden</translation>
    </message>
    <message>
        <source>&amp;Decide…</source>
        <translation>&amp;Entscheiden…</translation>
    </message>
    <message>
        <source>Alert when a run starts late, runs too long or too short, or has not succeeded by a deadline</source>
        <translation>Alarm, wenn ein Lauf verspätet startet, zu lange oder zu kurz läuft oder bis zu einer Frist nicht erfolgreich war</translation>
    </message>
    <message>
        <source>Run the missed fire times, run the latest only, or dismiss them</source>
        <translation>Die versäumten Auslösezeiten ausführen, nur die letzte ausführen oder sie verwerfen</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>over the last hour</source>
        <translation>in der letzten Stunde</translation>
    </message>
    <message numerus="yes">
        <source>%n missed run(s) wait for your decision (the latest %1, %2).</source>
        <translation>
            <numerusform>%n versäumter Lauf wartet auf Ihre Entscheidung (zuletzt %1, %2).</numerusform>
            <numerusform>%n versäumte Läufe warten auf Ihre Entscheidung (zuletzt %1, %2).</numerusform>
        </translation>
    </message>
    <message>
        <source>over the last day</source>
        <translation>am letzten Tag</translation>
    </message>
    <message>
        <source>over the last %1</source>
        <translation>in den letzten %1</translation>
    </message>
</context>
<context>
    <name>hg::ChainPath</name>
    <message>
        <source>project name</source>
        <translation>Name des Projekts</translation>
    </message>
    <message>
        <source>chain name</source>
        <translation>Name der Kette</translation>
    </message>
    <message>
        <source>task name</source>
        <translation>Name der Aufgabe</translation>
    </message>
    <message>
        <source>connection name</source>
        <translation>Name der Verbindung</translation>
    </message>
    <message>
        <source>%1 name</source>
        <translation>Name (%1)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not PROJECT/CHAIN</source>
        <translation>„%1“ ist nicht PROJEKT/KETTE</translation>
    </message>
    <message>
        <source>%1 is empty</source>
        <translation>%1 ist leer</translation>
    </message>
    <message>
        <source>%1 &apos;%2&apos; starts or ends with a space</source>
        <translation>%1 „%2“ beginnt oder endet mit einem Leerzeichen</translation>
    </message>
    <message>
        <source>%1 &apos;%2&apos; contains &apos;/&apos;</source>
        <translation>%1 „%2“ enthält „/“</translation>
    </message>
    <message>
        <source>%1 &apos;%2&apos; contains a control character</source>
        <translation>%1 „%2“ enthält ein Steuerzeichen</translation>
    </message>
    <message>
        <source>%1 is longer than 200 characters</source>
        <translation>%1 ist länger als 200 Zeichen</translation>
    </message>
</context>
<context>
    <name>hg::ChainRepository</name>
    <message>
        <source>add chain &apos;%1&apos;</source>
        <translation>Hinzufügen der Kette „%1“</translation>
    </message>
    <message>
        <source>chain &apos;%1&apos; already exists in this project</source>
        <translation>Kette „%1“ gibt es in diesem Projekt bereits</translation>
    </message>
    <message>
        <source>unknown project id %1</source>
        <translation>unbekannte Projekt-ID %1</translation>
    </message>
    <message>
        <source>update chain &apos;%1&apos;</source>
        <translation>Ändern der Kette „%1“</translation>
    </message>
    <message>
        <source>unknown chain id %1</source>
        <translation>unbekannte Ketten-ID %1</translation>
    </message>
    <message>
        <source>read chain</source>
        <translation>Lesen der Kette</translation>
    </message>
    <message>
        <source>unknown chain &apos;%1&apos;</source>
        <translation>unbekannte Kette „%1“</translation>
    </message>
    <message>
        <source>list chains</source>
        <translation>Auflisten der Ketten</translation>
    </message>
    <message>
        <source>remove chain</source>
        <translation>Entfernen der Kette</translation>
    </message>
    <message>
        <source>chain %1</source>
        <translation>Kette %1</translation>
    </message>
    <message>
        <source>read chains</source>
        <translation>Ketten lesen</translation>
    </message>
</context>
<context>
    <name>hg::ChainSchedulesBox</name>
    <message>
        <source>Schedules</source>
        <translation>Zeitpläne</translation>
    </message>
    <message>
        <source>The chain&apos;s schedules: expression, meaning, zone, next fire, enabled</source>
        <translation>Die Zeitpläne der Kette: Ausdruck, Bedeutung, Zone, nächste Auslösung, aktiviert</translation>
    </message>
    <message>
        <source>A&amp;dd…</source>
        <translation>Hin&amp;zufügen…</translation>
    </message>
    <message>
        <source>Edi&amp;t…</source>
        <translation>Bearbe&amp;iten…</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>Entfe&amp;rnen</translation>
    </message>
    <message>
        <source>Add a schedule to this chain (Ctrl+Shift+S)</source>
        <translation>Dieser Kette einen Zeitplan hinzufügen (Strg+Umschalt+S)</translation>
    </message>
    <message>
        <source>Edit the selected schedule (or double-click it)</source>
        <translation>Den ausgewählten Zeitplan bearbeiten (oder doppelt klicken)</translation>
    </message>
    <message>
        <source>Remove the selected schedule; Undo brings it back</source>
        <translation>Den ausgewählten Zeitplan entfernen; Rückgängig holt ihn zurück</translation>
    </message>
    <message>
        <source>next %1, %2</source>
        <translation>nächster %1, %2</translation>
    </message>
    <message>
        <source>%1: %2; %3</source>
        <translation>%1: %2; %3</translation>
    </message>
    <message>
        <source>does not fire</source>
        <translation>löst nicht aus</translation>
    </message>
</context>
<context>
    <name>hg::ChainSettingsBar</name>
    <message>
        <source>Notify</source>
        <translation>Benachrichtigen</translation>
    </message>
    <message>
        <source>A run while one runs</source>
        <translation>Wenn bereits ein Lauf läuft</translation>
    </message>
    <message>
        <source>This chain is switched off: its schedules do not fire. Run now still runs it.</source>
        <translation>Diese Kette ist ausgeschaltet: Ihre Zeitpläne lösen nicht aus. „Jetzt ausführen“ führt sie trotzdem aus.</translation>
    </message>
    <message>
        <source>&amp;Enable</source>
        <translation>Akti&amp;vieren</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>on success</source>
        <translation>bei Erfolg</translation>
    </message>
    <message>
        <source>on failure and recovery</source>
        <translation>bei Fehlschlag und wieder Erfolg</translation>
    </message>
    <message>
        <source>always</source>
        <translation>immer</translation>
    </message>
    <message>
        <source>What happens when the chain is due (or started by hand) while a run of it is still going</source>
        <translation>Was geschieht, wenn die Kette fällig ist (oder von Hand gestartet wird), während noch ein Lauf von ihr läuft</translation>
    </message>
    <message>
        <source>Notif&amp;y:</source>
        <translation>Bena&amp;chrichtigen:</translation>
    </message>
    <message>
        <source>A run &amp;while one runs:</source>
        <translation>Wenn bereits ein Lauf l&amp;äuft:</translation>
    </message>
    <message>
        <source>How long this chain&apos;s finished runs and their logs are kept</source>
        <translation>Wie lange die beendeten Läufe dieser Kette und ihre Protokolle aufbewahrt werden</translation>
    </message>
    <message>
        <source>Channe&amp;ls…</source>
        <translation>Kanäl&amp;e…</translation>
    </message>
    <message>
        <source>When a run of this chain ends, whether the tray shows a notification</source>
        <translation>Ob der Infobereich eine Benachrichtigung zeigt, wenn ein Lauf dieser Kette endet</translation>
    </message>
    <message>
        <source>Which events of this chain go to which channels (e-mail, webhooks, a desktop), and to whom</source>
        <translation>Welche Ereignisse dieser Kette an welche Kanäle gehen (E-Mail, Webhooks, ein Desktop) und an wen</translation>
    </message>
    <message>
        <source>Only with a network</source>
        <translation>Nur mit Netzwerk</translation>
    </message>
    <message>
        <source>Its schedules and triggers start it only while the computer has a network; a fire without one is skipped and shown in its fire times (Run now still runs it)</source>
        <translation>Ihre Zeitpläne und Auslöser starten sie nur, solange der Rechner ein Netzwerk hat; ein Auslösen ohne Netzwerk wird übersprungen und in ihren Auslösezeiten gezeigt (Jetzt ausführen startet sie trotzdem)</translation>
    </message>
</context>
<context>
    <name>hg::ChainTriggerExchange</name>
    <message>
        <source>import: %1.triggers: %2 triggers; %3 at most</source>
        <translation>Import: %1.triggers: %2 Auslöser; höchstens %3</translation>
    </message>
    <message>
        <source>a window in milliseconds, from 1,000 to 30 days</source>
        <translation>ein Zeitfenster in Millisekunden, von 1.000 bis 30 Tage</translation>
    </message>
    <message>
        <source>no chain %1 in this store or the document</source>
        <translation>keine Kette %1 in diesem Datenspeicher oder dem Dokument</translation>
    </message>
    <message>
        <source>import: %1</source>
        <translation>Import: %1</translation>
    </message>
    <message>
        <source>import: %1: %2</source>
        <translation>Import: %1: %2</translation>
    </message>
    <message>
        <source>event: one of unlock, resume, network, idle, ac-power</source>
        <translation>event: eines von unlock, resume, network, idle, ac-power</translation>
    </message>
</context>
<context>
    <name>hg::ChainTriggerRepository</name>
    <message>
        <source>--after: name the chain (or chains) whose runs start it</source>
        <translation>--after: die Kette (oder Ketten) nennen, deren Läufe sie starten</translation>
    </message>
    <message>
        <source>--after: %1 chains; %2 at most</source>
        <translation>--after: %1 Ketten; höchstens %2</translation>
    </message>
    <message>
        <source>--after: %1 cannot start itself when it ends (every run would start the next for good)</source>
        <translation>--after: %1 kann sich nicht selbst starten, wenn sie endet (jeder Lauf würde für immer den nächsten starten)</translation>
    </message>
    <message>
        <source>--after: %1 is named twice</source>
        <translation>--after: %1 ist zweimal genannt</translation>
    </message>
    <message>
        <source>--within: a window from 1 s to 30 days</source>
        <translation>--within: ein Zeitfenster von 1 s bis 30 Tage</translation>
    </message>
    <message>
        <source>--within: waits for every one of several chains; with one, each of its ends starts a run</source>
        <translation>--within: wartet auf jede von mehreren Ketten; bei einer startet jedes ihrer Enden einen Lauf</translation>
    </message>
    <message>
        <source>--after: a cycle of triggers, each end starting the next for good: %1</source>
        <translation>--after: ein Kreis von Auslösern, jedes Ende startet für immer das nächste: %1</translation>
    </message>
    <message>
        <source>add a trigger</source>
        <translation>einen Auslöser hinzufügen</translation>
    </message>
    <message>
        <source>read the triggers</source>
        <translation>die Auslöser lesen</translation>
    </message>
    <message>
        <source>list triggers</source>
        <translation>Auslöser auflisten</translation>
    </message>
    <message>
        <source>read a trigger</source>
        <translation>einen Auslöser lesen</translation>
    </message>
    <message>
        <source>no trigger %1</source>
        <translation>kein Auslöser %1</translation>
    </message>
    <message>
        <source>remove a trigger</source>
        <translation>einen Auslöser entfernen</translation>
    </message>
    <message>
        <source>no trigger %1 (`hourglass trigger list` shows them)</source>
        <translation>kein Auslöser %1 (`hourglass trigger list` zeigt sie)</translation>
    </message>
    <message>
        <source>pause a trigger</source>
        <translation>einen Auslöser anhalten</translation>
    </message>
    <message>
        <source>resume a trigger</source>
        <translation>einen Auslöser fortsetzen</translation>
    </message>
    <message>
        <source>no chain %1</source>
        <translation>keine Kette %1</translation>
    </message>
    <message>
        <source>note how a trigger is watched</source>
        <translation>festhalten, wie ein Auslöser beobachtet wird</translation>
    </message>
    <message>
        <source>%1: %2 has no client name, and on a shared store %3 is on one machine: set the chain&apos;s client name to the name of the engine that watches it (the chain editor, or `chain add … --client NAME`)</source>
        <translation>%1: %2 hat keinen Client-Namen, und in einem gemeinsamen Speicher gehört %3 zu einem Rechner: Setzen Sie den Client-Namen der Kette auf den Namen der Engine, die ihn beobachtet (im Ketten-Editor oder mit `chain add … --client NAME`)</translation>
    </message>
    <message>
        <source>a file</source>
        <translation>eine Datei</translation>
    </message>
    <message>
        <source>a desktop</source>
        <translation>ein Desktop</translation>
    </message>
    <message>
        <source>change a trigger</source>
        <translation>einen Auslöser ändern</translation>
    </message>
    <message>
        <source>%1 already has this trigger, paused (id %2): `hourglass trigger resume %2`</source>
        <translation>%1 hat diesen Auslöser schon, pausiert (Kennung %2): `hourglass trigger resume %2`</translation>
    </message>
    <message>
        <source>%1 already has this trigger (id %2); two would start two runs for each event</source>
        <translation>%1 hat diesen Auslöser schon (Kennung %2); zwei würden bei jedem Ereignis zwei Läufe starten</translation>
    </message>
</context>
<context>
    <name>hg::ChainTriggersBox</name>
    <message>
        <source>created</source>
        <translation>erstellt</translation>
    </message>
    <message>
        <source>modified</source>
        <translation>geändert</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>gelöscht</translation>
    </message>
    <message>
        <source>moved in</source>
        <translation>hineinverschoben</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>beendet</translation>
    </message>
    <message>
        <source>Triggers</source>
        <translation>Auslöser</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>Pausieren</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>What starts this chain besides its schedules: other chains, files, desktop events</source>
        <translation>Was diese Kette außer ihren Zeitplänen startet: andere Ketten, Dateien, Desktop-Ereignisse</translation>
    </message>
    <message>
        <source>Add trigger</source>
        <translation>Auslöser hinzufügen</translation>
    </message>
    <message>
        <source>Start this chain after other chains, when files arrive, or on a desktop event</source>
        <translation>Diese Kette nach anderen Ketten, bei ankommenden Dateien oder bei einem Desktop-Ereignis starten</translation>
    </message>
    <message>
        <source>After other chains end…</source>
        <translation>Nach dem Ende anderer Ketten…</translation>
    </message>
    <message>
        <source>When files arrive…</source>
        <translation>Wenn Dateien ankommen…</translation>
    </message>
    <message>
        <source>On a desktop event…</source>
        <translation>Bei einem Desktop-Ereignis…</translation>
    </message>
    <message>
        <source>Pause or resume the selected trigger; Undo takes it back</source>
        <translation>Den gewählten Auslöser pausieren oder fortsetzen; Rückgängig nimmt es zurück</translation>
    </message>
    <message>
        <source>Remove the selected trigger; Undo brings it back</source>
        <translation>Den gewählten Auslöser entfernen; Rückgängig holt ihn zurück</translation>
    </message>
    <message>
        <source>after a run of %1 %2</source>
        <translation>nach einem Lauf von %1: %2</translation>
    </message>
    <message>
        <source> or </source>
        <translation> oder </translation>
    </message>
    <message numerus="yes">
        <source>after runs of all of %1 %2 within %n min</source>
        <translation>
            <numerusform>nach Läufen aller von %1: %2 innerhalb %n min</numerusform>
            <numerusform>nach Läufen aller von %1: %2 innerhalb %n min</numerusform>
        </translation>
    </message>
    <message>
        <source>files %1 %2</source>
        <translation>Dateien %1 %2</translation>
    </message>
    <message>
        <source>%1 (paused)</source>
        <translation>%1 (pausiert)</translation>
    </message>
    <message>
        <source>No trigger: the chain starts by its schedules or by hand</source>
        <translation>Kein Auslöser: die Kette startet nach ihren Zeitplänen oder von Hand</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>a signed POST to %1</source>
        <translation>ein signierter POST an %1</translation>
    </message>
</context>
<context>
    <name>hg::ChainValidator</name>
    <message>
        <source>max instances must be 0 (no limit) or more</source>
        <translation>die Höchstzahl gleichzeitiger Läufe muss 0 (keine Grenze) oder mehr sein</translation>
    </message>
    <message>
        <source>chain timeout must be 0 (none) or more seconds</source>
        <translation>das Zeitlimit der Kette muss 0 (keines) oder mehr Sekunden betragen</translation>
    </message>
    <message>
        <source>retention limits must be 0 (keep all) or more</source>
        <translation>Aufbewahrungsgrenzen müssen 0 (alles behalten) oder mehr sein</translation>
    </message>
</context>
<context>
    <name>hg::ChannelDialog</name>
    <message>
        <source>Channel %1</source>
        <translation>Kanal %1</translation>
    </message>
    <message>
        <source>Add a channel</source>
        <translation>Kanal hinzufügen</translation>
    </message>
    <message>
        <source>E-mail (SMTP)</source>
        <translation>E-Mail (SMTP)</translation>
    </message>
    <message>
        <source>Webhook (HTTP POST)</source>
        <translation>Webhook (HTTP POST)</translation>
    </message>
    <message>
        <source>STARTTLS</source>
        <translation>STARTTLS</translation>
    </message>
    <message>
        <source>implicit TLS</source>
        <translation>implizites TLS</translation>
    </message>
    <message>
        <source>none (this machine only)</source>
        <translation>keine (nur dieser Rechner)</translation>
    </message>
    <message>
        <source>the system&apos;s certificates</source>
        <translation>die Zertifikate des Systems</translation>
    </message>
    <message>
        <source>ops@example.org, dba@example.org</source>
        <translation>ops@example.org, dba@example.org</translation>
    </message>
    <message>
        <source>none: no login</source>
        <translation>keins: keine Anmeldung</translation>
    </message>
    <message>
        <source>&amp;Encryption:</source>
        <translation>V&amp;erschlüsselung:</translation>
    </message>
    <message>
        <source>&amp;CA file:</source>
        <translation>&amp;CA-Datei:</translation>
    </message>
    <message>
        <source>&amp;From:</source>
        <translation>&amp;Von:</translation>
    </message>
    <message>
        <source>&amp;To:</source>
        <translation>E&amp;mpfänger:</translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation>&amp;Passwort:</translation>
    </message>
    <message>
        <source>none: unsigned</source>
        <translation>keins: unsigniert</translation>
    </message>
    <message>
        <source>&amp;URL:</source>
        <translation>&amp;URL:</translation>
    </message>
    <message>
        <source>&amp;Body:</source>
        <translation>&amp;Inhalt:</translation>
    </message>
    <message>
        <source>(kept as a secret)</source>
        <translation>(als Geheimnis verwahrt)</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>keine Grenze</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>no cap</source>
        <translation>keine Tagesgrenze</translation>
    </message>
    <message>
        <source>At most (&amp;messages):</source>
        <translation>&amp;Obergrenze (Nachrichten):</translation>
    </message>
    <message>
        <source>… in (&amp;window):</source>
        <translation>… in (&amp;Zeitfenster):</translation>
    </message>
    <message>
        <source>At most a &amp;day:</source>
        <translation>Höchstens am &amp;Tag:</translation>
    </message>
    <message>
        <source>Past either limit, messages wait and one digest tells of them.</source>
        <translation>Jenseits einer der Grenzen warten Nachrichten, und eine Sammelnachricht berichtet von ihnen.</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>&amp;Art:</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <source>a password needs a user to log in as: smtp://USER@HOST</source>
        <translation>ein Passwort braucht einen Benutzer zur Anmeldung: smtp://BENUTZER@HOST</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a readable PEM file of certificates</source>
        <translation>„%1“ ist keine lesbare PEM-Datei mit Zertifikaten</translation>
    </message>
    <message>
        <source>Se&amp;rver:</source>
        <translation>Se&amp;rver:</translation>
    </message>
    <message>
        <source>Si&amp;gning secret:</source>
        <translation>Si&amp;gnaturgeheimnis:</translation>
    </message>
    <message>
        <source>The default e-mail channe&amp;l (crontab MAILTO routes go to it)</source>
        <translation>Der Standard-E-Mai&amp;l-Kanal (crontab-MAILTO-Routen gehen an ihn)</translation>
    </message>
    <message>
        <source>The URL &amp;is a secret (Slack&apos;s and Teams&apos; carry a token)</source>
        <translation>&amp;Die URL ist geheim (die von Slack und Teams enthalten ein Token)</translation>
    </message>
    <message>
        <source>kept in the keychain</source>
        <translation>im Schlüsselbund verwahrt</translation>
    </message>
    <message>
        <source>a channel named &apos;%1&apos; exists</source>
        <translation>ein Kanal namens „%1“ existiert bereits</translation>
    </message>
    <message>
        <source>the Password field</source>
        <translation>das Feld Passwort</translation>
    </message>
    <message>
        <source>&apos;The URL is a secret&apos;</source>
        <translation>„Die URL ist geheim“</translation>
    </message>
    <message>
        <source>Encryption none</source>
        <translation>Verschlüsselung keine</translation>
    </message>
    <message>
        <source>The URL</source>
        <translation>Die URL</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>To</source>
        <translation>An</translation>
    </message>
    <message>
        <source>The CA file</source>
        <translation>Die CA-Datei</translation>
    </message>
    <message>
        <source>Desktop (the tray of Hourglass&apos;s window)</source>
        <translation>Desktop (der Infobereich des Hourglass-Fensters)</translation>
    </message>
    <message>
        <source>any desktop of this store</source>
        <translation>jeder Desktop dieses Datenspeichers</translation>
    </message>
    <message>
        <source>Shown on (&amp;host):</source>
        <translation>Gezeigt auf (&amp;Host):</translation>
    </message>
    <message>
        <source>Shown by the window&apos;s engine on that machine; on a shared store, name the host so others&apos; desktops leave it.</source>
        <translation>Gezeigt von der Engine des Fensters auf diesem Rechner; bei einem geteilten Datenspeicher den Host nennen, damit die Desktops anderer ihn auslassen.</translation>
    </message>
    <message>
        <source>Shown on</source>
        <translation>Gezeigt auf</translation>
    </message>
    <message>
        <source>a %1 webhook&apos;s URL is itself a secret (its token is in the path): check &apos;The URL is a secret&apos;</source>
        <translation>die URL eines %1-Webhooks ist selbst ein Geheimnis (ihr Token steht im Pfad): „Die URL ist geheim“ ankreuzen</translation>
    </message>
</context>
<context>
    <name>hg::ChannelSecrets</name>
    <message>
        <source>the keychain</source>
        <translation>dem Schlüsselbund</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 is damaged (%2); it holds the channels&apos; secrets: move it away and add the channels again</source>
        <translation>%1 ist beschädigt (%2); die Datei enthält die Geheimnisse der Kanäle: verschieben Sie sie und fügen Sie die Kanäle erneut hinzu</translation>
    </message>
    <message>
        <source>cannot make %1</source>
        <translation>%1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>%1 is locked by another process</source>
        <translation>%1 ist von einem anderen Prozess gesperrt</translation>
    </message>
    <message>
        <source>%1 belongs to another user: the channels&apos; secrets are not kept there</source>
        <translation>%1 gehört einem anderen Benutzer: die Geheimnisse der Kanäle werden dort nicht aufbewahrt</translation>
    </message>
    <message>
        <source>%1 is not a regular file; it should hold the channels&apos; secrets</source>
        <translation>%1 ist keine gewöhnliche Datei; sie sollte die Geheimnisse der Kanäle enthalten</translation>
    </message>
    <message>
        <source>type the password in the task form&apos;s password field</source>
        <translation>das Passwort im Passwortfeld des Aufgabenformulars eintippen</translation>
    </message>
    <message>
        <source>give them with `hourglass channel set %1 --password-stdin` (or --secret-stdin, --secret-url-stdin)</source>
        <translation>mit `hourglass channel set %1 --password-stdin` angeben (oder --secret-stdin, --secret-url-stdin)</translation>
    </message>
    <message>
        <source>the secrets are not here (neither the keychain nor %1 holds %2): %3</source>
        <translation>die Geheimnisse sind nicht hier (weder der Schlüsselbund noch %1 enthält %2): %3</translation>
    </message>
</context>
<context>
    <name>hg::ClockWatch</name>
    <message>
        <source>%1 d</source>
        <translation>%1 T</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 Std.</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 Min.</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
</context>
<context>
    <name>hg::CommandRepository</name>
    <message>
        <source>enqueue %1 command</source>
        <translation>Einreihen des Befehls %1</translation>
    </message>
    <message>
        <source>claim a command</source>
        <translation>Übernehmen eines Befehls</translation>
    </message>
    <message>
        <source>complete command %1</source>
        <translation>Abschließen von Befehl %1</translation>
    </message>
    <message>
        <source>unknown command %1</source>
        <translation>unbekannter Befehl %1</translation>
    </message>
    <message>
        <source>read command</source>
        <translation>Lesen des Befehls</translation>
    </message>
    <message>
        <source>list commands</source>
        <translation>Auflisten der Befehle</translation>
    </message>
</context>
<context>
    <name>hg::ConcurrencyRule</name>
    <message>
        <source>run beside it</source>
        <translation>parallel ausführen</translation>
    </message>
    <message>
        <source>wait for it, then run</source>
        <translation>abwarten, dann ausführen</translation>
    </message>
    <message>
        <source>skip this one</source>
        <translation>diesen Lauf überspringen</translation>
    </message>
    <message numerus="yes">
        <source>run up to %n at once, then wait</source>
        <translation>
            <numerusform>bis zu %n Lauf gleichzeitig, dann warten</numerusform>
            <numerusform>bis zu %n Läufe gleichzeitig, dann warten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>run up to %n at once, then skip</source>
        <translation>
            <numerusform>bis zu %n Lauf gleichzeitig, dann überspringen</numerusform>
            <numerusform>bis zu %n Läufe gleichzeitig, dann überspringen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hg::ConnectTaskDialog</name>
    <message>
        <source>Connect “%1”</source>
        <translation>„%1“ verbinden</translation>
    </message>
    <message>
        <source>Task that runs after it</source>
        <translation>Aufgabe, die danach ausgeführt wird</translation>
    </message>
    <message>
        <source>Condition</source>
        <translation>Bedingung</translation>
    </message>
    <message>
        <source>when it succeeds</source>
        <translation>wenn sie erfolgreich ist</translation>
    </message>
    <message>
        <source>when it ends, however</source>
        <translation>wenn sie endet, egal wie</translation>
    </message>
    <message>
        <source>when it fails</source>
        <translation>wenn sie fehlschlägt</translation>
    </message>
    <message>
        <source>&amp;Then run:</source>
        <translation>&amp;Danach ausführen:</translation>
    </message>
    <message>
        <source>&amp;Condition:</source>
        <translation>&amp;Bedingung:</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>&amp;Verbinden</translation>
    </message>
    <message>
        <source>After “%1”:</source>
        <translation>Nach „%1“:</translation>
    </message>
    <message>
        <source>%1 (it runs before: a loop)</source>
        <translation>%1 (läuft davor: eine Schleife)</translation>
    </message>
    <message>
        <source>%1 (already after it)</source>
        <translation>%1 (schon danach)</translation>
    </message>
</context>
<context>
    <name>hg::ConnectionDialog</name>
    <message>
        <source>Add connection</source>
        <translation>Verbindung hinzufügen</translation>
    </message>
    <message>
        <source>Edit connection</source>
        <translation>Verbindung bearbeiten</translation>
    </message>
    <message>
        <source>kept in the OS keychain</source>
        <translation>wird im Schlüsselbund des Systems abgelegt</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>unverändert</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>&amp;Art:</translation>
    </message>
    <message>
        <source>&amp;URL:</source>
        <translation>&amp;URL:</translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation>&amp;Passwort:</translation>
    </message>
    <message>
        <source>&amp;Test</source>
        <translation>&amp;Testen</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbinde…</translation>
    </message>
    <message>
        <source>A connection named &apos;%1&apos; exists already.</source>
        <translation>Eine Verbindung namens &apos;%1&apos; gibt es bereits.</translation>
    </message>
</context>
<context>
    <name>hg::ConnectionPage</name>
    <message>
        <source>Ed&amp;it…</source>
        <translation>&amp;Bearbeiten…</translation>
    </message>
    <message>
        <source>&amp;Test</source>
        <translation>&amp;Testen</translation>
    </message>
    <message>
        <source>Re&amp;move…</source>
        <translation>&amp;Entfernen…</translation>
    </message>
    <message>
        <source>Connection state</source>
        <translation>Zustand der Verbindung</translation>
    </message>
    <message>
        <source>Add co&amp;nnection…</source>
        <translation>&amp;Verbindung hinzufügen…</translation>
    </message>
    <message>
        <source>Connections</source>
        <translation>Verbindungen</translation>
    </message>
    <message>
        <source>A connection reaches a pg_timetable, DolphinScheduler or pgAgent database, or a database that SQL tasks use. Its password is kept in the desktop&apos;s keychain (or in ~/.pgpass and ~/.my.cnf where none runs), never in the store.

Select a pg_timetable chain under its connection to see, edit, start and stop it.</source>
        <translation>Eine Verbindung erreicht eine pg_timetable-, DolphinScheduler- oder pgAgent-Datenbank oder eine Datenbank, die SQL-Aufgaben nutzen. Ihr Passwort liegt im Schlüsselbund des Desktops (oder in ~/.pgpass und ~/.my.cnf, wo keiner läuft), nie im Speicher.

Wählen Sie eine pg_timetable-Kette unter ihrer Verbindung, um sie anzusehen, zu bearbeiten, zu starten und anzuhalten.</translation>
    </message>
</context>
<context>
    <name>hg::ConnectionProfileRepository</name>
    <message>
        <source>port %1 is out of range 0-65535</source>
        <translation>Port %1 liegt außerhalb des Bereichs 0-65535</translation>
    </message>
    <message>
        <source>add connection &apos;%1&apos;</source>
        <translation>Hinzufügen der Verbindung „%1“</translation>
    </message>
    <message>
        <source>connection &apos;%1&apos; already exists</source>
        <translation>Verbindung „%1“ gibt es bereits</translation>
    </message>
    <message>
        <source>update connection &apos;%1&apos;</source>
        <translation>Ändern der Verbindung „%1“</translation>
    </message>
    <message>
        <source>unknown connection id %1</source>
        <translation>unbekannte Verbindungs-ID %1</translation>
    </message>
    <message>
        <source>read connection</source>
        <translation>Lesen der Verbindung</translation>
    </message>
    <message>
        <source>unknown connection &apos;%1&apos;</source>
        <translation>unbekannte Verbindung „%1“</translation>
    </message>
    <message>
        <source>list connections</source>
        <translation>Auflisten der Verbindungen</translation>
    </message>
    <message>
        <source>remove connection &apos;%1&apos;</source>
        <translation>Entfernen der Verbindung „%1“</translation>
    </message>
    <message>
        <source>connection &apos;%1&apos; is still used by a task</source>
        <translation>Verbindung „%1“ wird noch von einer Aufgabe verwendet</translation>
    </message>
    <message>
        <source>--options: &apos;%1&apos; carries a password, which would be kept in the store in plain text; leave it out and keep the password in the OS keychain (--keychain-key, or remote add ... --password-stdin)</source>
        <translation>--options: &apos;%1&apos; enthält ein Passwort, das im Klartext im Speicher läge; lassen Sie es weg und legen Sie das Passwort im Schlüsselbund des Systems ab (--keychain-key oder remote add ... --password-stdin)</translation>
    </message>
</context>
<context>
    <name>hg::ConnectionSecrets</name>
    <message>
        <source>the keychain</source>
        <translation>dem Schlüsselbund</translation>
    </message>
    <message>
        <source>connection &apos;%1&apos;: no password under &apos;%2&apos; in the keychain; set it again with hourglass remote password %1 --password-stdin</source>
        <translation>Verbindung &apos;%1&apos;: kein Passwort unter &apos;%2&apos; im Schlüsselbund; setzen Sie es erneut mit hourglass remote password %1 --password-stdin</translation>
    </message>
</context>
<context>
    <name>hg::ConnectionUrl</name>
    <message>
        <source>&apos;%1&apos; is not a URL; write it as postgresql://USER@HOST:PORT/DATABASE</source>
        <translation>&apos;%1&apos; ist keine URL; schreiben Sie postgresql://BENUTZER@HOST:PORT/DATENBANK</translation>
    </message>
    <message>
        <source>unknown URL scheme &apos;%1:&apos;; use postgresql:// or mysql://</source>
        <translation>unbekanntes URL-Schema &apos;%1:&apos;; verwenden Sie postgresql:// oder mysql://</translation>
    </message>
    <message>
        <source>a %1 connection cannot use a %2:// URL</source>
        <translation>eine %1-Verbindung kann keine %2://-URL verwenden</translation>
    </message>
    <message>
        <source>the URL holds a password; leave it out and give it with --password-stdin (kept in the OS keychain) or in ~/.pgpass or ~/.my.cnf</source>
        <translation>die URL enthält ein Passwort; lassen Sie es weg und geben Sie es mit --password-stdin an (im Schlüsselbund des Systems abgelegt) oder in ~/.pgpass bzw. ~/.my.cnf</translation>
    </message>
    <message>
        <source>the URL names no host: %1</source>
        <translation>die URL nennt keinen Host: %1</translation>
    </message>
    <message>
        <source>the URL&apos;s path must be just the database name: %1</source>
        <translation>der Pfad der URL darf nur der Datenbankname sein: %1</translation>
    </message>
    <message>
        <source>the URL holds a password; leave it out and give it with --password-stdin</source>
        <translation>die URL enthält ein Passwort; lassen Sie es weg und geben Sie es mit --password-stdin an</translation>
    </message>
</context>
<context>
    <name>hg::ConnectionsController</name>
    <message>
        <source>Add &amp;connection…</source>
        <translation>&amp;Verbindung hinzufügen…</translation>
    </message>
    <message>
        <source>Check connections &amp;again</source>
        <translation>Verbindungen &amp;erneut prüfen</translation>
    </message>
    <message>
        <source>Connect to a pg_timetable, DolphinScheduler or pgAgent database, or to a database for SQL tasks</source>
        <translation>Mit einer pg_timetable-, DolphinScheduler- oder pgAgent-Datenbank verbinden, oder mit einer Datenbank für SQL-Aufgaben</translation>
    </message>
    <message>
        <source>&amp;Edit connection…</source>
        <translation>Verbindung &amp;bearbeiten…</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <source>&amp;Remove connection…</source>
        <translation>Verbindung &amp;entfernen…</translation>
    </message>
    <message>
        <source>Remove connection</source>
        <translation>Verbindung entfernen</translation>
    </message>
    <message>
        <source>Remove connection &apos;%1&apos; and forget its password? Nothing on the remote changes.</source>
        <translation>Verbindung &apos;%1&apos; entfernen und ihr Passwort vergessen? Auf der Gegenseite ändert sich nichts.</translation>
    </message>
    <message>
        <source>Import chain</source>
        <translation>Kette importieren</translation>
    </message>
    <message>
        <source>Into the local project:</source>
        <translation>In das lokale Projekt:</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is now a local chain in project &apos;%2&apos;.</source>
        <translation>&apos;%1&apos; ist jetzt eine lokale Kette im Projekt &apos;%2&apos;.</translation>
    </message>
    <message>
        <source>Import job</source>
        <translation>Auftrag importieren</translation>
    </message>
    <message>
        <source>Nothing was imported: %1</source>
        <translation>Nichts wurde importiert: %1</translation>
    </message>
    <message>
        <source>pgAgent job &apos;%1&apos; is now a local chain in project &apos;%2&apos;, but not all of it came along.</source>
        <translation>pgAgent-Auftrag „%1“ ist jetzt eine lokale Kette im Projekt „%2“, aber nicht alles kam mit.</translation>
    </message>
    <message>
        <source>pgAgent job &apos;%1&apos; is now a local chain in project &apos;%2&apos;.</source>
        <translation>pgAgent-Auftrag „%1“ ist jetzt eine lokale Kette im Projekt „%2“.</translation>
    </message>
</context>
<context>
    <name>hg::CronExplainer</name>
    <message>
        <source>January</source>
        <comment>month</comment>
        <translation>Januar</translation>
    </message>
    <message>
        <source>February</source>
        <comment>month</comment>
        <translation>Februar</translation>
    </message>
    <message>
        <source>March</source>
        <comment>month</comment>
        <translation>März</translation>
    </message>
    <message>
        <source>April</source>
        <comment>month</comment>
        <translation>April</translation>
    </message>
    <message>
        <source>May</source>
        <comment>month</comment>
        <translation>Mai</translation>
    </message>
    <message>
        <source>June</source>
        <comment>month</comment>
        <translation>Juni</translation>
    </message>
    <message>
        <source>July</source>
        <comment>month</comment>
        <translation>Juli</translation>
    </message>
    <message>
        <source>August</source>
        <comment>month</comment>
        <translation>August</translation>
    </message>
    <message>
        <source>September</source>
        <comment>month</comment>
        <translation>September</translation>
    </message>
    <message>
        <source>October</source>
        <comment>month</comment>
        <translation>Oktober</translation>
    </message>
    <message>
        <source>November</source>
        <comment>month</comment>
        <translation>November</translation>
    </message>
    <message>
        <source>December</source>
        <comment>month</comment>
        <translation>Dezember</translation>
    </message>
    <message>
        <source>Sunday</source>
        <comment>one day</comment>
        <translation>Sonntag</translation>
    </message>
    <message>
        <source>Monday</source>
        <comment>one day</comment>
        <translation>Montag</translation>
    </message>
    <message>
        <source>Tuesday</source>
        <comment>one day</comment>
        <translation>Dienstag</translation>
    </message>
    <message>
        <source>Wednesday</source>
        <comment>one day</comment>
        <translation>Mittwoch</translation>
    </message>
    <message>
        <source>Thursday</source>
        <comment>one day</comment>
        <translation>Donnerstag</translation>
    </message>
    <message>
        <source>Friday</source>
        <comment>one day</comment>
        <translation>Freitag</translation>
    </message>
    <message>
        <source>Saturday</source>
        <comment>one day</comment>
        <translation>Samstag</translation>
    </message>
    <message>
        <source>Sunday</source>
        <comment>every week on this day</comment>
        <translation>sonntags</translation>
    </message>
    <message>
        <source>Monday</source>
        <comment>every week on this day</comment>
        <translation>montags</translation>
    </message>
    <message>
        <source>Tuesday</source>
        <comment>every week on this day</comment>
        <translation>dienstags</translation>
    </message>
    <message>
        <source>Wednesday</source>
        <comment>every week on this day</comment>
        <translation>mittwochs</translation>
    </message>
    <message>
        <source>Thursday</source>
        <comment>every week on this day</comment>
        <translation>donnerstags</translation>
    </message>
    <message>
        <source>Friday</source>
        <comment>every week on this day</comment>
        <translation>freitags</translation>
    </message>
    <message>
        <source>Saturday</source>
        <comment>every week on this day</comment>
        <translation>samstags</translation>
    </message>
    <message>
        <source>%1 day</source>
        <translation>%1 Tag</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 Tage</translation>
    </message>
    <message>
        <source>%1 hour</source>
        <translation>%1 Stunde</translation>
    </message>
    <message>
        <source>%1 hours</source>
        <translation>%1 Stunden</translation>
    </message>
    <message>
        <source>%1 minute</source>
        <translation>%1 Minute</translation>
    </message>
    <message>
        <source>%1 minutes</source>
        <translation>%1 Minuten</translation>
    </message>
    <message>
        <source>%1 second</source>
        <translation>%1 Sekunde</translation>
    </message>
    <message>
        <source>%1 seconds</source>
        <translation>%1 Sekunden</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <extracomment>The last two items of a list; %1 may itself be a list joined with &quot;, &quot;.</extracomment>
        <translation>%1 und %2</translation>
    </message>
    <message>
        <source>%1st</source>
        <comment>ordinal: 1st, 21st</comment>
        <translation>%1.</translation>
    </message>
    <message>
        <source>%1nd</source>
        <comment>ordinal: 2nd, 22nd</comment>
        <translation>%1.</translation>
    </message>
    <message>
        <source>%1rd</source>
        <comment>ordinal: 3rd, 23rd</comment>
        <translation>%1.</translation>
    </message>
    <message>
        <source>%1th</source>
        <comment>ordinal: 4th, 11th, 12th</comment>
        <translation>%1.</translation>
    </message>
    <message>
        <source>%1 through %2</source>
        <comment>a range: Monday through Friday, 9 through 17</comment>
        <translation>%1 bis %2</translation>
    </message>
    <message>
        <source>Once each time the engine starts</source>
        <translation>Einmal bei jedem Start der Engine</translation>
    </message>
    <message>
        <source>Every %1</source>
        <extracomment>%1 is an interval: &quot;2 hours and 30 minutes&quot;</extracomment>
        <translation>Alle %1</translation>
    </message>
    <message>
        <source>%1 after the previous run ends</source>
        <translation>%1 nach dem Ende des vorigen Laufs</translation>
    </message>
    <message>
        <source>At %1</source>
        <extracomment>%1 is one or more clock times: &quot;At 09:00 and 17:00&quot;</extracomment>
        <translation>Um %1</translation>
    </message>
    <message>
        <source>every second</source>
        <translation>jede Sekunde</translation>
    </message>
    <message>
        <source>every minute</source>
        <translation>jede Minute</translation>
    </message>
    <message>
        <source>every %1 seconds</source>
        <translation>alle %1 Sekunden</translation>
    </message>
    <message>
        <source>every %1 minutes</source>
        <translation>alle %1 Minuten</translation>
    </message>
    <message>
        <source>at second %1</source>
        <translation>zur Sekunde %1</translation>
    </message>
    <message>
        <source>at minute %1</source>
        <translation>zur Minute %1</translation>
    </message>
    <message>
        <source>at seconds %1</source>
        <extracomment>%1 is a list: &quot;0 and 30&quot;, &quot;0 through 10&quot;</extracomment>
        <translation>zu den Sekunden %1</translation>
    </message>
    <message>
        <source>at minutes %1</source>
        <translation>zu den Minuten %1</translation>
    </message>
    <message>
        <source>every %1 hours</source>
        <translation>alle %1 Stunden</translation>
    </message>
    <message>
        <source>during hour %1</source>
        <comment>one hour</comment>
        <translation>in der Stunde %1</translation>
    </message>
    <message>
        <source>during hour %1</source>
        <comment>several hours</comment>
        <extracomment>%1 is a list of hours: &quot;09 through 17&quot;</extracomment>
        <translation>in den Stunden %1</translation>
    </message>
    <message>
        <source>the weekday nearest %1 day(s) before the last day of the month</source>
        <translation>am Werktag, der dem %1. Tag vor dem letzten Tag des Monats am nächsten liegt</translation>
    </message>
    <message>
        <source>the weekday nearest the last day of the month</source>
        <translation>am Werktag, der dem letzten Tag des Monats am nächsten liegt</translation>
    </message>
    <message>
        <source>%1 day(s) before the last day of the month</source>
        <translation>am %1. Tag vor dem letzten Tag des Monats</translation>
    </message>
    <message>
        <source>the last day of the month</source>
        <translation>am letzten Tag des Monats</translation>
    </message>
    <message>
        <source>the weekday nearest day %1 of the month</source>
        <translation>am Werktag, der dem Tag %1 des Monats am nächsten liegt</translation>
    </message>
    <message>
        <source>day %1 of the month</source>
        <extracomment>%1 is a list of days: &quot;1 and 15&quot;, &quot;1 through 5&quot;</extracomment>
        <translation>am Tag %1 des Monats</translation>
    </message>
    <message>
        <source>the %1 %2 of the month</source>
        <extracomment>%1 is an ordinal (&quot;2nd&quot;), %2 a day: &quot;the 2nd Monday of the month&quot;</extracomment>
        <translation>am %1 %2 des Monats</translation>
    </message>
    <message>
        <source>the last %1 of the month</source>
        <translation>am letzten %1 des Monats</translation>
    </message>
    <message>
        <source>on %1</source>
        <comment>a day of the month</comment>
        <extracomment>%1 is a day of the month: &quot;day 1 of the month&quot;, &quot;the last day of the month&quot;</extracomment>
        <translation>%1</translation>
    </message>
    <message>
        <source>on %1</source>
        <comment>days of the week</comment>
        <extracomment>%1 is days of the week: &quot;Monday through Friday&quot;, &quot;the 2nd Monday of the month&quot;</extracomment>
        <translation>%1</translation>
    </message>
    <message>
        <source>on %1 or on %2</source>
        <extracomment>unix cron fires on either: &quot;on day 1 of the month or on Monday&quot;</extracomment>
        <translation>%1 oder %2</translation>
    </message>
    <message>
        <source>on %1 if it is a %2</source>
        <extracomment>%1 is a day of the month, %2 one or more single days: &quot;on day 1 of the month if it is a Monday&quot;</extracomment>
        <translation>%1, wenn dieser ein %2 ist</translation>
    </message>
    <message>
        <source>every %1 months from January</source>
        <translation>alle %1 Monate ab Januar</translation>
    </message>
    <message>
        <source>in %1</source>
        <comment>months</comment>
        <extracomment>%1 is a list of months: &quot;January and July&quot;, &quot;March through May&quot;</extracomment>
        <translation>im %1</translation>
    </message>
    <message>
        <source>in %1</source>
        <comment>one year</comment>
        <extracomment>%1 is a list of years: &quot;2027 through 2029&quot;</extracomment>
        <translation>im Jahr %1</translation>
    </message>
    <message>
        <source>in %1</source>
        <comment>several years</comment>
        <translation>in den Jahren %1</translation>
    </message>
    <message>
        <source>day-of-month and day-of-week are both restricted: unix cron fires when EITHER matches (pg_timetable needs BOTH, Quartz takes only one)</source>
        <translation>Tag des Monats und Wochentag sind beide eingeschränkt: Unix-Cron löst aus, wenn EINES von beiden passt (pg_timetable verlangt BEIDE, Quartz nimmt nur eines)</translation>
    </message>
    <message>
        <source>a day field starting with &apos;*&apos; (%1) counts as unrestricted in cronie, so BOTH day fields must match; most other crons would fire when EITHER matches</source>
        <translation>ein Tagesfeld, das mit „*“ beginnt (%1), gilt in cronie als uneingeschränkt, daher müssen BEIDE Tagesfelder passen; die meisten anderen Crons lösen aus, wenn EINES von beiden passt</translation>
    </message>
    <message>
        <source>day-of-month and day-of-week are both restricted: pg_timetable fires only when BOTH match (unix cron fires when EITHER matches)</source>
        <translation>Tag des Monats und Wochentag sind beide eingeschränkt: pg_timetable löst nur aus, wenn BEIDE passen (Unix-Cron löst aus, wenn EINES von beiden passt)</translation>
    </message>
    <message>
        <source>Quartz: &apos;?&apos; marks the day field that is ignored; day-of-week counts 1 = Sunday to 7 = Saturday (unix cron: 0 = Sunday)</source>
        <translation>Quartz: „?“ kennzeichnet das Tagesfeld, das nicht beachtet wird; der Wochentag zählt 1 = Sonntag bis 7 = Samstag (Unix-Cron: 0 = Sonntag)</translation>
    </message>
</context>
<context>
    <name>hg::CronParser</name>
    <message>
        <source>second</source>
        <comment>a cron field</comment>
        <translation>Sekunde</translation>
    </message>
    <message>
        <source>minute</source>
        <comment>a cron field</comment>
        <translation>Minute</translation>
    </message>
    <message>
        <source>hour</source>
        <comment>a cron field</comment>
        <translation>Stunde</translation>
    </message>
    <message>
        <source>day-of-month</source>
        <comment>a cron field</comment>
        <translation>Tag des Monats</translation>
    </message>
    <message>
        <source>month</source>
        <comment>a cron field</comment>
        <translation>Monat</translation>
    </message>
    <message>
        <source>day-of-week</source>
        <comment>a cron field</comment>
        <translation>Wochentag</translation>
    </message>
    <message>
        <source>year</source>
        <comment>a cron field</comment>
        <translation>Jahr</translation>
    </message>
    <message>
        <source>%1 field (column %2): %3</source>
        <translation>Feld „%1“ (Spalte %2): %3</translation>
    </message>
    <message>
        <source>the expression is empty</source>
        <translation>der Ausdruck ist leer</translation>
    </message>
    <message>
        <source>%1 (column 1): %2</source>
        <translation>%1 (Spalte 1): %2</translation>
    </message>
    <message>
        <source>is pg_timetable syntax; use the pgtimetable dialect</source>
        <translation>ist pg_timetable-Syntax; den Dialekt pgtimetable verwenden</translation>
    </message>
    <message>
        <source>%1 (column %2): %3</source>
        <translation>%1 (Spalte %2): %3</translation>
    </message>
    <message>
        <source>%1 (%2 is pg_timetable syntax)</source>
        <translation>%1 (%2 ist pg_timetable-Syntax)</translation>
    </message>
    <message>
        <source>takes nothing after it, found &apos;%1&apos;</source>
        <translation>nimmt nichts danach an, gefunden: „%1“</translation>
    </message>
    <message>
        <source>Quartz has no @reboot</source>
        <translation>Quartz kennt kein @reboot</translation>
    </message>
    <message>
        <source>%1 has no macros; write the fields instead (%2)</source>
        <translation>%1 kennt keine Makros; stattdessen die Felder schreiben (%2)</translation>
    </message>
    <message>
        <source>%1 (%2 is a cron macro)</source>
        <translation>%1 (%2 ist ein Cron-Makro)</translation>
    </message>
    <message>
        <source>unknown macro; known are @yearly @annually @monthly @weekly @daily @midnight @hourly @reboot @every @after</source>
        <translation>unbekanntes Makro; bekannt sind @yearly @annually @monthly @weekly @daily @midnight @hourly @reboot @every @after</translation>
    </message>
    <message>
        <source>%1 (5 fields)</source>
        <translation>%1 (5 Felder)</translation>
    </message>
    <message>
        <source>%1 (6 fields, no Quartz &apos;?&apos;, L, W or #)</source>
        <translation>%1 (6 Felder, kein „?“, L, W oder # von Quartz)</translation>
    </message>
    <message>
        <source>%1 (7 fields)</source>
        <translation>%1 (7 Felder)</translation>
    </message>
    <message>
        <source>%1 (6 fields with &apos;?&apos;, L, W or #)</source>
        <translation>%1 (6 Felder mit „?“, L, W oder #)</translation>
    </message>
    <message>
        <source>expected 5 fields (unix), 6 (seconds or Quartz) or 7 (Quartz with year), found %1</source>
        <translation>erwartet werden 5 Felder (unix), 6 (seconds oder Quartz) oder 7 (Quartz mit Jahr), gefunden: %1</translation>
    </message>
    <message>
        <source>the %1 dialect takes %2, found %3 field(s)</source>
        <translation>der Dialekt %1 nimmt %2 an, gefunden: %3 Feld(er)</translation>
    </message>
    <message>
        <source>5 fields (minute hour day-of-month month day-of-week)</source>
        <translation>5 Felder (Minute, Stunde, Tag des Monats, Monat, Wochentag)</translation>
    </message>
    <message>
        <source>6 fields (second minute hour day-of-month month day-of-week)</source>
        <translation>6 Felder (Sekunde, Minute, Stunde, Tag des Monats, Monat, Wochentag)</translation>
    </message>
    <message>
        <source>6 or 7 fields (second minute hour day-of-month month day-of-week [year])</source>
        <translation>6 oder 7 Felder (Sekunde, Minute, Stunde, Tag des Monats, Monat, Wochentag [, Jahr])</translation>
    </message>
    <message>
        <source>pg_timetable lists may hold plain numbers only, not &apos;%1&apos;</source>
        <translation>pg_timetable-Listen dürfen nur einfache Zahlen enthalten, nicht „%1“</translation>
    </message>
    <message>
        <source>empty list item</source>
        <translation>leerer Listeneintrag</translation>
    </message>
    <message>
        <source>%1 is out of range %2-%3</source>
        <translation>%1 liegt außerhalb des Bereichs %2-%3</translation>
    </message>
    <message>
        <source>a number is missing</source>
        <translation>eine Zahl fehlt</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a number (pg_timetable takes no names)</source>
        <translation>„%1“ ist keine Zahl (pg_timetable kennt keine Namen)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a number or a name</source>
        <translation>„%1“ ist weder eine Zahl noch ein Name</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a number</source>
        <translation>„%1“ ist keine Zahl</translation>
    </message>
    <message>
        <source>the step &apos;%1&apos; is not a number</source>
        <translation>die Schrittweite „%1“ ist keine Zahl</translation>
    </message>
    <message>
        <source>a step must be at least 1</source>
        <translation>eine Schrittweite muss mindestens 1 sein</translation>
    </message>
    <message>
        <source>a step of %1 is larger than the field</source>
        <translation>eine Schrittweite von %1 ist größer als das Feld</translation>
    </message>
    <message>
        <source>a step needs &apos;*&apos; or a range before it: write %1-%2/%3</source>
        <translation>vor einer Schrittweite muss „*“ oder ein Bereich stehen: %1-%2/%3 schreiben</translation>
    </message>
    <message>
        <source>the range %1 runs backwards</source>
        <translation>der Bereich %1 läuft rückwärts</translation>
    </message>
    <message>
        <source>&apos;L&apos; and &apos;W&apos; cannot be combined with other days</source>
        <translation>„L“ und „W“ lassen sich nicht mit anderen Tagen kombinieren</translation>
    </message>
    <message>
        <source>the offset from the last day must be 30 or less</source>
        <translation>der Abstand zum letzten Tag darf höchstens 30 betragen</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a Quartz day (use L, L-n, LW, nW)</source>
        <translation>„%1“ ist kein Quartz-Tag (L, L-n, LW oder nW verwenden)</translation>
    </message>
    <message>
        <source>&apos;?&apos; may stand in day-of-month or day-of-week, not both</source>
        <translation>„?“ darf im Tag des Monats oder im Wochentag stehen, nicht in beiden</translation>
    </message>
    <message>
        <source>Quartz needs &apos;?&apos; in day-of-month or in day-of-week: it cannot use both</source>
        <translation>Quartz braucht „?“ im Tag des Monats oder im Wochentag: beide zugleich kann es nicht verwenden</translation>
    </message>
    <message>
        <source>&apos;L&apos; and &apos;#&apos; cannot be combined with other days</source>
        <translation>„L“ und „#“ lassen sich nicht mit anderen Tagen kombinieren</translation>
    </message>
    <message>
        <source>&apos;#&apos; must be followed by 1 to 5</source>
        <translation>auf „#“ muss 1 bis 5 folgen</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a Quartz day of week (use d, dL or d#n)</source>
        <translation>„%1“ ist kein Quartz-Wochentag (d, dL oder d#n verwenden)</translation>
    </message>
    <message>
        <source>no day given</source>
        <translation>kein Tag angegeben</translation>
    </message>
    <message>
        <source>&apos;%1&apos; never fires in the years %2</source>
        <translation>„%1“ löst in den Jahren %2 nie aus</translation>
    </message>
    <message>
        <source>&apos;%1&apos; never fires: day-of-month %2 never falls in %3</source>
        <translation>„%1“ löst nie aus: Tag des Monats %2 fällt nie in %3</translation>
    </message>
</context>
<context>
    <name>hg::CrontabImporter</name>
    <message>
        <source>CRON_TZ &apos;%1&apos; (line %2) is not a time zone this system knows</source>
        <translation>CRON_TZ „%1“ (Zeile %2) ist keine Zeitzone, die dieses System kennt</translation>
    </message>
    <message>
        <source>cronie&apos;s random start delay has no counterpart; jobs start at their fire times</source>
        <translation>die zufällige Startverzögerung von cronie hat keine Entsprechung; Aufträge starten zu ihren Auslösezeiten</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a cron macro (@reboot, @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly)</source>
        <translation>„%1“ ist kein cron-Makro (@reboot, @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly)</translation>
    </message>
    <message>
        <source>neither a job (five time fields and a command) nor a NAME=VALUE line</source>
        <translation>weder ein Auftrag (fünf Zeitfelder und ein Befehl) noch eine Zeile NAME=WERT</translation>
    </message>
    <message>
        <source>the line has no command</source>
        <translation>die Zeile hat keinen Befehl</translation>
    </message>
    <message>
        <source>the text after &apos;%&apos; is the command&apos;s standard input, as a here-document</source>
        <translation>der Text nach „%“ ist die Standardeingabe des Befehls, als Here-Dokument</translation>
    </message>
    <message>
        <source>From %1, line %2: %3</source>
        <translation>Aus %1, Zeile %2: %3</translation>
    </message>
    <message>
        <source>at start-up</source>
        <translation>beim Start</translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <translation>%1 in %2</translation>
    </message>
    <message>
        <source>cron runs it as %1; Hourglass runs it as %2, the user of its engine</source>
        <translation>cron führt ihn als %1 aus; Hourglass führt ihn als %2 aus, den Benutzer seiner Engine</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an e-mail address (a local user&apos;s mailbox?): Hourglass mails through an SMTP server; give user@host</source>
        <translation>„%1“ ist keine E-Mail-Adresse (das Postfach eines lokalen Benutzers?): Hourglass versendet über einen SMTP-Server; benutzer@host angeben</translation>
    </message>
    <message>
        <source>the jobs below mail their output to %1 whenever they print anything, as cron does, through the default e-mail channel</source>
        <translation>die Jobs darunter schicken ihre Ausgabe an %1, sobald sie etwas ausgeben, wie cron es tut, über den Standard-E-Mail-Kanal</translation>
    </message>
    <message>
        <source>mail comes from the e-mail channel&apos;s own sender (channel add --from)</source>
        <translation>E-Mails kommen vom eigenen Absender des E-Mail-Kanals (channel add --from)</translation>
    </message>
    <message>
        <source>%1 addresses; %2 at most (a list address reaches more)</source>
        <translation>%1 Adressen; höchstens %2 (eine Listenadresse erreicht mehr)</translation>
    </message>
</context>
<context>
    <name>hg::DagItemAccessible</name>
    <message>
        <source>%1 task, %2</source>
        <translation>Aufgabe vom Typ %1, %2</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>%1 runs after %2, on %3</source>
        <translation>%1 läuft nach %2, bei %3</translation>
    </message>
</context>
<context>
    <name>hg::DagScene</name>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>Run when it &amp;succeeds</source>
        <translation>Ausführen, wenn sie &amp;erfolgreich ist</translation>
    </message>
    <message>
        <source>Run when it &amp;completes (either way)</source>
        <translation>Ausführen, wenn sie &amp;beendet ist (egal wie)</translation>
    </message>
    <message>
        <source>Run when it &amp;fails</source>
        <translation>Ausführen, wenn sie &amp;fehlschlägt</translation>
    </message>
    <message>
        <source>&amp;Delete dependency</source>
        <translation>Abhängigkeit &amp;löschen</translation>
    </message>
    <message>
        <source>&amp;Delete task %1</source>
        <translation>Aufgabe %1 &amp;löschen</translation>
    </message>
</context>
<context>
    <name>hg::DefinitionChangeRepository</name>
    <message>
        <source>read the definition changes</source>
        <translation>Lesen der Definitionsänderungen</translation>
    </message>
    <message>
        <source>read the definition revision</source>
        <translation>Lesen der Definitionsrevision</translation>
    </message>
    <message>
        <source>the store has no definition revision</source>
        <translation>der Datenspeicher hat keine Definitionsrevision</translation>
    </message>
    <message>
        <source>prune the definition changes</source>
        <translation>Löschen alter Definitionsänderungen</translation>
    </message>
</context>
<context>
    <name>hg::DefinitionEditor</name>
    <message>
        <source>New project %1</source>
        <translation>Neues Projekt %1</translation>
    </message>
    <message>
        <source>Rename project %1 to %2</source>
        <translation>Projekt %1 in %2 umbenennen</translation>
    </message>
    <message>
        <source>Delete project %1</source>
        <translation>Projekt %1 löschen</translation>
    </message>
    <message>
        <source>cannot read the restored chain %1</source>
        <translation>die wiederhergestellte Kette %1 kann nicht gelesen werden</translation>
    </message>
    <message>
        <source>New chain %1</source>
        <translation>Neue Kette %1</translation>
    </message>
    <message>
        <source>Rename chain %1 to %2</source>
        <translation>Kette %1 in %2 umbenennen</translation>
    </message>
    <message>
        <source>Enable chain %1</source>
        <translation>Kette %1 aktivieren</translation>
    </message>
    <message>
        <source>Disable chain %1</source>
        <translation>Kette %1 deaktivieren</translation>
    </message>
    <message>
        <source>Edit chain %1</source>
        <translation>Kette %1 bearbeiten</translation>
    </message>
    <message>
        <source>%1 copy</source>
        <translation>%1 Kopie</translation>
    </message>
    <message>
        <source>%1 copy %2</source>
        <translation>%1 Kopie %2</translation>
    </message>
    <message>
        <source>Duplicate chain %1</source>
        <translation>Kette %1 duplizieren</translation>
    </message>
    <message>
        <source>Delete chain %1</source>
        <translation>Kette %1 löschen</translation>
    </message>
    <message>
        <source>New task %1</source>
        <translation>Neue Aufgabe %1</translation>
    </message>
    <message>
        <source>Edit task %1</source>
        <translation>Aufgabe %1 bearbeiten</translation>
    </message>
    <message>
        <source>Delete task %1</source>
        <translation>Aufgabe %1 löschen</translation>
    </message>
    <message>
        <source>Connect %1 → %2</source>
        <translation>%1 → %2 verbinden</translation>
    </message>
    <message>
        <source>no such dependency</source>
        <translation>keine solche Abhängigkeit</translation>
    </message>
    <message>
        <source>Run %1 on %2</source>
        <translation>%1 bei %2 ausführen</translation>
    </message>
    <message>
        <source>Disconnect %1 → %2</source>
        <translation>Verbindung %1 → %2 trennen</translation>
    </message>
    <message>
        <source>New schedule %1</source>
        <translation>Neuer Zeitplan %1</translation>
    </message>
    <message>
        <source>Edit schedule %1</source>
        <translation>Zeitplan %1 bearbeiten</translation>
    </message>
    <message>
        <source>Delete schedule %1</source>
        <translation>Zeitplan %1 löschen</translation>
    </message>
    <message>
        <source>after another chain</source>
        <translation>nach einer anderen Kette</translation>
    </message>
    <message>
        <source>New trigger %1</source>
        <translation>Neuer Auslöser %1</translation>
    </message>
    <message>
        <source>Delete trigger %1</source>
        <translation>Auslöser %1 löschen</translation>
    </message>
    <message>
        <source>Pause trigger %1</source>
        <translation>Auslöser %1 pausieren</translation>
    </message>
    <message>
        <source>Resume trigger %1</source>
        <translation>Auslöser %1 fortsetzen</translation>
    </message>
</context>
<context>
    <name>hg::Deliverer</name>
    <message>
        <source>the run printed nothing</source>
        <translation>der Lauf hat nichts ausgegeben</translation>
    </message>
    <message>
        <source> — it may have arrived all the same; it is sent again with the same X-Hourglass-Delivery id for the receiver to drop the repeat</source>
        <translation> — sie ist vielleicht trotzdem angekommen; sie wird mit derselben X-Hourglass-Delivery-Kennung erneut gesendet, damit der Empfänger die Wiederholung verwerfen kann</translation>
    </message>
    <message>
        <source>held back for a digest</source>
        <translation>für eine Sammelnachricht zurückgehalten</translation>
    </message>
    <message>
        <source>nothing was held back</source>
        <translation>nichts wurde zurückgehalten</translation>
    </message>
    <message>
        <source>no desktop of this store</source>
        <translation>kein Desktop dieses Datenspeichers</translation>
    </message>
    <message>
        <source>the desktop of %1</source>
        <translation>der Desktop von %1</translation>
    </message>
    <message>
        <source>%1 showed it in %2 min of retries: Hourglass&apos;s window was not running there</source>
        <translation>%1 hat sie in %2 min Wiederholungen nicht gezeigt: das Hourglass-Fenster lief dort nicht</translation>
    </message>
    <message>
        <source>shown on the desktop of %1</source>
        <translation>auf dem Desktop von %1 gezeigt</translation>
    </message>
</context>
<context>
    <name>hg::DependenciesModel</name>
    <message>
        <source>After</source>
        <translation>Nach</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
</context>
<context>
    <name>hg::DependencyGraph</name>
    <message>
        <source>dependency would close a cycle: %1</source>
        <translation>die Abhängigkeit würde einen Zyklus schließen: %1</translation>
    </message>
</context>
<context>
    <name>hg::DependencyRepository</name>
    <message>
        <source>a dependency joins two tasks of the same chain</source>
        <translation>eine Abhängigkeit verbindet zwei Aufgaben derselben Kette</translation>
    </message>
    <message>
        <source>&apos;%1&apos; already depends on &apos;%2&apos;</source>
        <translation>„%1“ hängt bereits von „%2“ ab</translation>
    </message>
    <message>
        <source>add dependency</source>
        <translation>Hinzufügen der Abhängigkeit</translation>
    </message>
    <message>
        <source>remove dependency</source>
        <translation>Entfernen der Abhängigkeit</translation>
    </message>
    <message>
        <source>no such dependency</source>
        <translation>keine solche Abhängigkeit</translation>
    </message>
    <message>
        <source>list dependencies</source>
        <translation>Auflisten der Abhängigkeiten</translation>
    </message>
</context>
<context>
    <name>hg::DesktopNotifier</name>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
</context>
<context>
    <name>hg::DesktopSignals</name>
    <message>
        <source>no system bus (D-Bus) to ask logind and UPower</source>
        <translation>kein Systembus (D-Bus), um logind und UPower zu fragen</translation>
    </message>
    <message>
        <source>no login manager (logind) on the system bus</source>
        <translation>kein Anmeldedienst (logind) auf dem Systembus</translation>
    </message>
    <message>
        <source>this engine runs in no login session (logind: %1)</source>
        <translation>diese Engine läuft in keiner Anmeldesitzung (logind: %1)</translation>
    </message>
    <message>
        <source>logind knows no session of this engine (%1)</source>
        <translation>logind kennt keine Sitzung dieser Engine (%1)</translation>
    </message>
    <message>
        <source>logind did not say the session&apos;s state (%1)</source>
        <translation>logind hat den Zustand der Sitzung nicht genannt (%1)</translation>
    </message>
    <message>
        <source>no UPower on the system bus (%1)</source>
        <translation>kein UPower auf dem Systembus (%1)</translation>
    </message>
    <message>
        <source>logind does not answer; asked again in a minute</source>
        <translation>logind antwortet nicht; in einer Minute wird wieder gefragt</translation>
    </message>
    <message>
        <source>UPower does not answer; asked again in a minute</source>
        <translation>UPower antwortet nicht; in einer Minute wird wieder gefragt</translation>
    </message>
    <message>
        <source>NetworkManager does not answer; asked again in a minute</source>
        <translation>NetworkManager antwortet nicht; in einer Minute wird wieder gefragt</translation>
    </message>
    <message>
        <source>%1, and its user has no graphical session</source>
        <translation>%1, und ihr Benutzer hat keine grafische Sitzung</translation>
    </message>
</context>
<context>
    <name>hg::DesktopTriggerRepository</name>
    <message>
        <source>start a run of a desktop trigger</source>
        <translation>einen Lauf eines Desktop-Auslösers starten</translation>
    </message>
</context>
<context>
    <name>hg::DesktopTriggerSpec</name>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>an idle time belongs to --on-idle only</source>
        <translation>eine Leerlaufzeit gehört nur zu --on-idle</translation>
    </message>
    <message>
        <source>--on-idle: whole minutes from 1 min to 7 d (the desktop&apos;s idle hint is no finer)</source>
        <translation>--on-idle: ganze Minuten von 1 min bis 7 d (der Leerlaufhinweis des Desktops ist nicht feiner)</translation>
    </message>
    <message>
        <source>session unlocked</source>
        <translation>Sitzung entsperrt</translation>
    </message>
    <message>
        <source>resumed from sleep</source>
        <translation>aus dem Ruhezustand erwacht</translation>
    </message>
    <message>
        <source>network came up</source>
        <translation>Netzwerk verfügbar</translation>
    </message>
    <message>
        <source>idle for %1</source>
        <translation>%1 im Leerlauf</translation>
    </message>
    <message>
        <source>on AC power</source>
        <translation>am Netzstrom</translation>
    </message>
</context>
<context>
    <name>hg::DesktopTriggerWatch</name>
    <message>
        <source>cannot fire here: %1</source>
        <translation>kann hier nicht auslösen: %1</translation>
    </message>
    <message>
        <source>trigger %1 (%2): watching again</source>
        <translation>Auslöser %1 (%2): beobachtet wieder</translation>
    </message>
    <message>
        <source>trigger %1 (%2): %3</source>
        <translation>Auslöser %1 (%2): %3</translation>
    </message>
</context>
<context>
    <name>hg::DigestMessage</name>
    <message>
        <source>channel &apos;%1&apos; reached its daily cap of 1 message</source>
        <translation>Kanal „%1“ hat seine Tagesgrenze von 1 Nachricht erreicht</translation>
    </message>
    <message>
        <source>channel &apos;%1&apos; reached its daily cap of %2 messages</source>
        <translation>Kanal „%1“ hat seine Tagesgrenze von %2 Nachrichten erreicht</translation>
    </message>
    <message numerus="yes">
        <source>Channel &apos;%1&apos; has sent %n message(s) today, its daily cap. Until midnight (the time zone of the engine on %2) its messages are held back; one digest then tells of them. `hourglass deliveries --state held` lists them.</source>
        <translation>
            <numerusform>Kanal „%1“ hat heute %n Nachricht gesendet, seine Tagesgrenze. Bis Mitternacht (in der Zeitzone der Engine auf %2) werden seine Nachrichten zurückgehalten; eine Sammelnachricht berichtet dann davon. `hourglass deliveries --state held` listet sie.</numerusform>
            <numerusform>Kanal „%1“ hat heute %n Nachrichten gesendet, seine Tagesgrenze. Bis Mitternacht (in der Zeitzone der Engine auf %2) werden seine Nachrichten zurückgehalten; eine Sammelnachricht berichtet dann davon. `hourglass deliveries --state held` listet sie.</numerusform>
        </translation>
    </message>
    <message>
        <source>    run %1 (%2)</source>
        <translation>    Lauf %1 (%2)</translation>
    </message>
    <message>
        <source>chain %1 (removed)</source>
        <translation>Kette %1 (entfernt)</translation>
    </message>
    <message numerus="yes">
        <source>  … and %n more chain(s)</source>
        <translation>
            <numerusform>  … und %n weitere Kette</numerusform>
            <numerusform>  … und %n weitere Ketten</numerusform>
        </translation>
    </message>
    <message>
        <source>1 message held back on channel &apos;%1&apos;</source>
        <translation>1 Nachricht auf Kanal „%1“ zurückgehalten</translation>
    </message>
    <message>
        <source>%1 messages held back on channel &apos;%2&apos;</source>
        <translation>%1 Nachrichten auf Kanal „%2“ zurückgehalten</translation>
    </message>
    <message>
        <source>at most %1 in %2 s</source>
        <translation>höchstens %1 in %2 s</translation>
    </message>
    <message numerus="yes">
        <source>Flood control (%1) held back %n message(s) for channel &apos;%2&apos; from %3 to %4; this digest tells of them once:</source>
        <translation>
            <numerusform>Die Flutbegrenzung (%1) hat %n Nachricht für Kanal „%2“ von %3 bis %4 zurückgehalten; diese Sammelnachricht berichtet einmal davon:</numerusform>
            <numerusform>Die Flutbegrenzung (%1) hat %n Nachrichten für Kanal „%2“ von %3 bis %4 zurückgehalten; diese Sammelnachricht berichtet einmal davon:</numerusform>
        </translation>
    </message>
    <message>
        <source>Engine host: %1. `hourglass deliveries --state held` lists them.</source>
        <translation>Rechner der Engine: %1. `hourglass deliveries --state held` listet sie.</translation>
    </message>
    <message>
        <source>at most %1 a day</source>
        <translation>höchstens %1 am Tag</translation>
    </message>
    <message>
        <source>limits since changed</source>
        <translation>Grenzen inzwischen geändert</translation>
    </message>
</context>
<context>
    <name>hg::DisplayFormat</name>
    <message>
        <source>now</source>
        <translation>jetzt</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>vor %1</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 d %2 h</translation>
    </message>
</context>
<context>
    <name>hg::DolphinSchedulerCatalog</name>
    <message>
        <source>%1, layout %2</source>
        <translation>%1, Layout %2</translation>
    </message>
    <message>
        <source>read the workflow definitions</source>
        <translation>Lesen der Workflow-Definitionen</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is no workflow: name it PROJECT/WORKFLOW</source>
        <translation>&apos;%1&apos; ist kein Workflow: als PROJEKT/WORKFLOW angeben</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos; has no workflow &apos;%2&apos;</source>
        <translation>Remote &apos;%1&apos; hat keinen Workflow &apos;%2&apos;</translation>
    </message>
    <message>
        <source>read the tasks of %1</source>
        <translation>Lesen der Aufgaben von %1</translation>
    </message>
    <message>
        <source>read the relations of %1</source>
        <translation>Lesen der Beziehungen von %1</translation>
    </message>
    <message>
        <source>read the workflow instances</source>
        <translation>Lesen der Workflow-Instanzen</translation>
    </message>
    <message>
        <source>read workflow instance %1</source>
        <translation>Lesen der Workflow-Instanz %1</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos; has no workflow instance %2</source>
        <translation>Remote &apos;%1&apos; hat keine Workflow-Instanz %2</translation>
    </message>
    <message>
        <source>read the task instances of %1</source>
        <translation>Lesen der Aufgaben-Instanzen von %1</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: workflow %2 cannot go online: its DAG is empty</source>
        <translation>Remote &apos;%1&apos;: Workflow %2 kann nicht online gehen: sein DAG ist leer</translation>
    </message>
    <message>
        <source>read the sub-workflows of %1</source>
        <translation>Lesen der Unter-Workflows von %1</translation>
    </message>
    <message>
        <source>read a sub-workflow of %1</source>
        <translation>Lesen eines Unter-Workflows von %1</translation>
    </message>
    <message>
        <source>begin a transaction</source>
        <translation>Beginnen einer Transaktion</translation>
    </message>
    <message>
        <source>set the release state of %1</source>
        <translation>Setzen des Freigabezustands von %1</translation>
    </message>
    <message>
        <source>take the schedule of %1 offline</source>
        <translation>Offline-Schalten des Zeitplans von %1</translation>
    </message>
    <message>
        <source>commit</source>
        <translation>Festschreiben</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: workflow %2 %3: its sub-workflow %4 (task %5) is not online</source>
        <translation>Remote &apos;%1&apos;: Workflow %2 %3: sein Unter-Workflow %4 (Aufgabe %5) ist nicht online</translation>
    </message>
    <message>
        <source>cannot go online</source>
        <translation>kann nicht online gehen</translation>
    </message>
    <message>
        <source>read DolphinScheduler&apos;s users</source>
        <translation>Lesen der Benutzer von DolphinScheduler</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: DolphinScheduler has no user &apos;%2&apos;</source>
        <translation>Remote &apos;%1&apos;: DolphinScheduler hat keinen Benutzer &apos;%2&apos;</translation>
    </message>
    <message>
        <source>read the task instances</source>
        <translation>Lesen der Aufgaben-Instanzen</translation>
    </message>
    <message>
        <source>read the project</source>
        <translation>Lesen des Projekts</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: no project with code %2</source>
        <translation>Gegenstelle „%1“: kein Projekt mit dem Code %2</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: workflow %2 has no schedule</source>
        <translation>Gegenstelle „%1“: Workflow %2 hat keinen Zeitplan</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: workflow %2 is not online, so its schedule cannot go online (DolphinScheduler: process definition %2 not online); bring the workflow online first</source>
        <translation>Gegenstelle „%1“: Workflow %2 ist nicht online, also kann sein Zeitplan nicht online gehen (DolphinScheduler: process definition %2 not online); zuerst den Workflow online schalten</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: workflow %2&apos;s DAG is empty: its schedule cannot go online</source>
        <translation>Gegenstelle „%1“: der DAG von Workflow %2 ist leer: sein Zeitplan kann nicht online gehen</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: database &apos;%2&apos; has no Quartz tables (QRTZ_TRIGGERS and the rest), where DolphinScheduler keeps an online schedule&apos;s job</source>
        <translation>Gegenstelle „%1“: Datenbank „%2“ hat keine Quartz-Tabellen (QRTZ_TRIGGERS und die übrigen), in denen DolphinScheduler den Job eines Zeitplans hält, der online ist</translation>
    </message>
    <message>
        <source>set the release state of %1&apos;s schedule</source>
        <translation>Setzen des Freigabezustands des Zeitplans von %1</translation>
    </message>
    <message>
        <source>read instance %1</source>
        <translation>Lesen der Instanz %1</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos; has no task instance %2</source>
        <translation>Remote &apos;%1&apos; hat keine Aufgaben-Instanz %2</translation>
    </message>
    <message>
        <source>t_ds_task_instance has no index on %1, so a workflow instance&apos;s task instances are found by reading them all; DolphinScheduler&apos;s MySQL schema has one, and an administrator can add it: CREATE INDEX idx_task_instance_%1 ON t_ds_task_instance (%1)</source>
        <translation>t_ds_task_instance hat keinen Index auf %1, daher werden die Aufgabeninstanzen einer Workflow-Instanz gefunden, indem alle gelesen werden; das MySQL-Schema von DolphinScheduler hat einen, und ein Administrator kann ihn anlegen: CREATE INDEX idx_task_instance_%1 ON t_ds_task_instance (%1)</translation>
    </message>
    <message>
        <source>%1 has no rows for version %2 of this workflow, so its tasks and their order cannot be read</source>
        <translation>%1 hat keine Zeilen für Version %2 dieses Workflows, daher können seine Aufgaben und ihre Reihenfolge nicht gelesen werden</translation>
    </message>
    <message numerus="yes">
        <source>%n task(s) its relations name have no row in t_ds_task_definition_log at that version: left out</source>
        <translation>
            <numerusform>%n Aufgabe, die seine Beziehungen nennen, hat in dieser Version keine Zeile in t_ds_task_definition_log: ausgelassen</numerusform>
            <numerusform>%n Aufgaben, die seine Beziehungen nennen, haben in dieser Version keine Zeile in t_ds_task_definition_log: ausgelassen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hg::DolphinSchedulerControl</name>
    <message>
        <source>read workflow instance %1</source>
        <translation>Lesen der Workflow-Instanz %1</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: workflow instance %2 does not exist</source>
        <translation>Remote &apos;%1&apos;: Workflow-Instanz %2 existiert nicht</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: the workflow instance %2 status is %3, %4</source>
        <translation>Remote &apos;%1&apos;: die Workflow-Instanz %2 hat den Zustand %3, %4</translation>
    </message>
    <message>
        <source>read the schedule of workflow instance %1</source>
        <translation>Lesen des Zeitplans der Workflow-Instanz %1</translation>
    </message>
    <message>
        <source>begin a transaction</source>
        <translation>Beginnen einer Transaktion</translation>
    </message>
    <message>
        <source>reset workflow instance %1</source>
        <translation>Zurücksetzen der Workflow-Instanz %1</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: workflow instance %2 changed state meanwhile; nothing was written</source>
        <translation>Remote &apos;%1&apos;: Workflow-Instanz %2 hat inzwischen ihren Zustand geändert; nichts wurde geschrieben</translation>
    </message>
    <message>
        <source>insert the command</source>
        <translation>Einfügen des Befehls</translation>
    </message>
    <message>
        <source>commit</source>
        <translation>Festschreiben</translation>
    </message>
    <message>
        <source>not yet assigned</source>
        <translation>noch nicht zugewiesen</translation>
    </message>
    <message>
        <source>update workflow instance %1</source>
        <translation>Aktualisieren der Workflow-Instanz %1</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: the workflow instance %2 status is %3, can not stop</source>
        <translation>Remote &apos;%1&apos;: die Workflow-Instanz %2 hat den Zustand %3 und kann nicht gestoppt werden</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: the workflow instance %2 status is %3, can not pause</source>
        <translation>Remote &apos;%1&apos;: die Workflow-Instanz %2 hat den Zustand %3 und kann nicht pausiert werden</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: DolphinScheduler stops a %2 instance by telling its master (%3) over RPC; a database write is not seen by the master, so Hourglass does not stop it</source>
        <translation>Remote &apos;%1&apos;: DolphinScheduler stoppt eine Instanz im Zustand %2, indem es ihrem Master (%3) per RPC Bescheid gibt; einen Schreibzugriff auf die Datenbank sieht der Master nicht, darum stoppt Hourglass sie nicht</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: DolphinScheduler pauses a %2 instance by telling its master (%3) over RPC; a database write is not seen by the master, so Hourglass does not pause it</source>
        <translation>Remote &apos;%1&apos;: DolphinScheduler pausiert eine Instanz im Zustand %2, indem es ihrem Master (%3) per RPC Bescheid gibt; einen Schreibzugriff auf die Datenbank sieht der Master nicht, darum pausiert Hourglass sie nicht</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: process definition %2 not on line</source>
        <translation>Remote &apos;%1&apos;: Prozessdefinition %2 ist nicht online</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: the status of process instance %2 is %3,Cannot perform %4 operation</source>
        <translation>Remote &apos;%1&apos;: die Prozessinstanz %2 hat den Zustand %3, die Operation %4 ist nicht möglich</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: process instance %2 is executing the command, please wait ... (a rerun, rerun from failed tasks or resume of workflow instance %3 is already queued in t_ds_command)</source>
        <translation>Remote &apos;%1&apos;: Prozessinstanz %2 führt den Befehl aus, bitte warten ... (eine Wiederholung, Wiederholung ab den fehlgeschlagenen Aufgaben oder Fortsetzung der Workflow-Instanz %3 steht bereits in t_ds_command)</translation>
    </message>
    <message>
        <source>read workflow definition %1</source>
        <translation>Lesen der Workflow-Definition %1</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: process definition %2 does not exist</source>
        <translation>Remote &apos;%1&apos;: Prozessdefinition %2 existiert nicht</translation>
    </message>
    <message>
        <source>read the queued commands</source>
        <translation>Lesen der eingereihten Befehle</translation>
    </message>
</context>
<context>
    <name>hg::DolphinSchedulerLaunchDialog</name>
    <message>
        <source>Complement %1</source>
        <translation>%1 nachholen</translation>
    </message>
    <message>
        <source>Start %1</source>
        <translation>%1 starten</translation>
    </message>
    <message>
        <source>DolphinScheduler&apos;s master runs the workflow once for each fire time of its online schedules in the range (each midnight when it has none).</source>
        <translation>Der Master von DolphinScheduler führt den Workflow einmal für jeden Auslösezeitpunkt seiner Zeitpläne im Zeitraum aus, die online sind (jede Mitternacht, wenn er keinen hat).</translation>
    </message>
    <message>
        <source>DolphinScheduler&apos;s master starts the workflow once, now.</source>
        <translation>Der Master von DolphinScheduler startet den Workflow einmal, jetzt.</translation>
    </message>
    <message>
        <source>&amp;From (%1):</source>
        <translation>&amp;Von (%1):</translation>
    </message>
    <message>
        <source>&amp;To:</source>
        <translation>&amp;Bis:</translation>
    </message>
    <message>
        <source>one after another</source>
        <translation>einer nach dem anderen</translation>
    </message>
    <message>
        <source>&amp;Runs at once:</source>
        <translation>&amp;Läufe zugleich:</translation>
    </message>
    <message>
        <source>Complement the workflows &amp;waiting on it too</source>
        <translation>Auch die Workflows nachholen, die auf ihn &amp;warten</translation>
    </message>
    <message>
        <source>Online workflows with a DEPENDENT task on this one, by the cycle of its schedule (DolphinScheduler 3.1 and 3.2)</source>
        <translation>Workflows, die online sind und eine DEPENDENT-Aufgabe auf diesen haben, nach dem Zyklus seines Zeitplans (DolphinScheduler 3.1 und 3.2)</translation>
    </message>
    <message>
        <source>And those waiting on them, at every &amp;level</source>
        <translation>Und die, die auf jene warten, auf jeder &amp;Ebene</translation>
    </message>
    <message>
        <source>Continue with the other tasks</source>
        <translation>Mit den übrigen Aufgaben weitermachen</translation>
    </message>
    <message>
        <source>End the run</source>
        <translation>Den Lauf beenden</translation>
    </message>
    <message>
        <source>When a task &amp;fails:</source>
        <translation>Wenn eine Aufgabe &amp;fehlschlägt:</translation>
    </message>
    <message>
        <source>&amp;Worker group:</source>
        <translation>&amp;Worker-Gruppe:</translation>
    </message>
    <message>
        <source>The DolphinScheduler user the run is started as</source>
        <translation>Der DolphinScheduler-Benutzer, als der der Lauf gestartet wird</translation>
    </message>
    <message>
        <source>Run &amp;as user:</source>
        <translation>&amp;Als Benutzer ausführen:</translation>
    </message>
    <message>
        <source>One NAME=VALUE per line</source>
        <translation>Ein NAME=WERT je Zeile</translation>
    </message>
    <message>
        <source>Start &amp;parameters:</source>
        <translation>Start&amp;parameter:</translation>
    </message>
    <message>
        <source>&amp;Dry run: the master goes through the DAG without running the tasks</source>
        <translation>&amp;Probelauf: der Master geht den DAG durch, ohne die Aufgaben auszuführen</translation>
    </message>
    <message>
        <source>Start from tasks</source>
        <translation>Bei Aufgaben beginnen</translation>
    </message>
    <message>
        <source>None ticked: the whole DAG, from its first tasks</source>
        <translation>Keine angehakt: der ganze DAG, ab seinen ersten Aufgaben</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Start from &amp;tasks:</source>
        <translation>Bei &amp;Aufgaben beginnen:</translation>
    </message>
    <message>
        <source>Them and the tasks after them</source>
        <translation>Sie und die Aufgaben danach</translation>
    </message>
    <message>
        <source>Them and the tasks they need first</source>
        <translation>Sie und die Aufgaben, die sie zuvor brauchen</translation>
    </message>
    <message>
        <source>Only them</source>
        <translation>Nur sie</translation>
    </message>
    <message>
        <source>DolphinScheduler&apos;s node execution: backward, forward or only the chosen tasks</source>
        <translation>Knotenausführung in DolphinScheduler: rückwärts, vorwärts oder nur die gewählten Aufgaben</translation>
    </message>
    <message>
        <source>R&amp;un:</source>
        <translation>A&amp;usführen:</translation>
    </message>
    <message>
        <source>&amp;Complement</source>
        <translation>&amp;Nachholen</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <source>Each start parameter is a line NAME=VALUE.</source>
        <translation>Jeder Startparameter ist eine Zeile NAME=WERT.</translation>
    </message>
    <message>
        <source>The range ends before it begins.</source>
        <translation>Der Zeitraum endet, bevor er beginnt.</translation>
    </message>
    <message>
        <source>Name the DolphinScheduler user the run starts as.</source>
        <translation>Bitte den DolphinScheduler-Benutzer nennen, als der der Lauf startet.</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Nie</translation>
    </message>
    <message>
        <source>When it succeeds</source>
        <translation>Bei Erfolg</translation>
    </message>
    <message>
        <source>When it fails</source>
        <translation>Bei Fehlschlag</translation>
    </message>
    <message>
        <source>When it ends</source>
        <translation>Bei jedem Ende</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>The id of the DolphinScheduler alert group to alert</source>
        <translation>Die ID der DolphinScheduler-Alarmgruppe, die benachrichtigt wird</translation>
    </message>
    <message>
        <source>Alert &amp;group:</source>
        <translation>Alarm&amp;gruppe:</translation>
    </message>
    <message>
        <source>Highest</source>
        <translation>Höchste</translation>
    </message>
    <message>
        <source>High</source>
        <translation>Hoch</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>Niedrig</translation>
    </message>
    <message>
        <source>Lowest</source>
        <translation>Niedrigste</translation>
    </message>
    <message>
        <source>Pri&amp;ority:</source>
        <translation>Pri&amp;orität:</translation>
    </message>
    <message>
        <source>The code of a DolphinScheduler environment</source>
        <translation>Der Code einer DolphinScheduler-Umgebung</translation>
    </message>
    <message>
        <source>The tenant the tasks run as (DolphinScheduler 3.2 and later; 2.0 takes the workflow&apos;s)</source>
        <translation>Der Mandant, als der die Aufgaben laufen (DolphinScheduler ab 3.2; 2.0 nimmt den des Workflows)</translation>
    </message>
    <message>
        <source>Te&amp;nant:</source>
        <translation>Ma&amp;ndant:</translation>
    </message>
    <message>
        <source>The environment is a DolphinScheduler environment&apos;s code, a number.</source>
        <translation>Die Umgebung ist der Code einer DolphinScheduler-Umgebung, eine Zahl.</translation>
    </message>
    <message>
        <source>Al&amp;ert:</source>
        <translation>Al&amp;arm:</translation>
    </message>
    <message>
        <source>En&amp;vironment:</source>
        <translation>Umge&amp;bung:</translation>
    </message>
</context>
<context>
    <name>hg::DolphinSchedulerLauncher</name>
    <message>
        <source>remote &apos;%1&apos;: workflow %2 (code %3, version %4) is not online: DolphinScheduler starts only online workflows</source>
        <translation>Remote &apos;%1&apos;: Workflow %2 (Code %3, Version %4) ist nicht online: DolphinScheduler startet nur Workflows, die online sind</translation>
    </message>
    <message>
        <source>cannot start</source>
        <translation>kann nicht starten</translation>
    </message>
    <message>
        <source>begin a transaction</source>
        <translation>Beginnen einer Transaktion</translation>
    </message>
    <message>
        <source>commit</source>
        <translation>Festschreiben</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: the range of dates to complement is not valid (from must be at or before to)</source>
        <translation>Remote &apos;%1&apos;: der nachzuholende Zeitraum ist ungültig (der Anfang muss vor dem Ende liegen)</translation>
    </message>
    <message>
        <source>read the schedules of %1</source>
        <translation>Lesen der Zeitpläne von %1</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: the schedule of %2 (%3) does not parse: %4</source>
        <translation>Remote &apos;%1&apos;: der Zeitplan von %2 (%3) ist nicht lesbar: %4</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: more than %2 dates to complement; narrow the range</source>
        <translation>Remote &apos;%1&apos;: mehr als %2 Zeitpunkte nachzuholen; bitte den Zeitraum verkleinern</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: the range of date for complementing date is not valid: no fire time of %2 falls in it</source>
        <translation>Remote &apos;%1&apos;: der nachzuholende Zeitraum ist ungültig: kein Auslösezeitpunkt von %2 liegt darin</translation>
    </message>
    <message>
        <source>insert the workflow instance</source>
        <translation>Einfügen der Workflow-Instanz</translation>
    </message>
    <message>
        <source>insert the command</source>
        <translation>Einfügen des Befehls</translation>
    </message>
    <message>
        <source>record what started it</source>
        <translation>Festhalten, was ihn gestartet hat</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: this node %2 does not exist in the latest process definition %3</source>
        <translation>Gegenstelle „%1“: der Knoten %2 existiert nicht in der neuesten Prozessdefinition %3</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: task depend type %2 is not 0 (only the start nodes), 1 (and before) or 2 (and after)</source>
        <translation>Gegenstelle „%1“: Abhängigkeitstyp %2 ist nicht 0 (nur die Startknoten), 1 (und davor) oder 2 (und danach)</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: DolphinScheduler 3.3 takes a complement of dependent workflows but does nothing with it (its master&apos;s WorkflowBackfillTrigger leaves it to do): complement each dependent workflow by itself</source>
        <translation>Gegenstelle „%1“: DolphinScheduler 3.3 nimmt das Nachholen abhängiger Workflows an, tut aber nichts damit (der WorkflowBackfillTrigger seines Masters lässt es offen): jeden abhängigen Workflow für sich nachholen</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: this DolphinScheduler (before 3.1) cannot complement dependent workflows</source>
        <translation>Gegenstelle „%1“: dieses DolphinScheduler (vor 3.1) kann abhängige Workflows nicht nachholen</translation>
    </message>
    <message>
        <source>find the workflows depending on %1</source>
        <translation>Suchen der Workflows, die von %1 abhängen</translation>
    </message>
    <message>
        <source>read complement command %1</source>
        <translation>Lesen des Nachhol-Befehls %1</translation>
    </message>
    <message>
        <source>read a dependent workflow&apos;s schedule</source>
        <translation>Lesen des Zeitplans eines abhängigen Workflows</translation>
    </message>
    <message>
        <source>insert the complement of a dependent workflow</source>
        <translation>Einfügen des Nachholens eines abhängigen Workflows</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: warning type %2 is not 0 (none), 1 (success), 2 (failure) or 3 (all)</source>
        <translation>Remote &apos;%1&apos;: Warnungstyp %2 ist nicht 0 (keiner), 1 (Erfolg), 2 (Fehlschlag) oder 3 (alle)</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: priority %2 is not 0 (highest) to 4 (lowest)</source>
        <translation>Remote &apos;%1&apos;: Priorität %2 liegt nicht zwischen 0 (höchste) und 4 (niedrigste)</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: this DolphinScheduler (before 3.2) takes the tenant from the workflow definition, not from the start</source>
        <translation>Remote &apos;%1&apos;: dieses DolphinScheduler (vor 3.2) nimmt den Mandanten aus der Workflow-Definition, nicht vom Start</translation>
    </message>
    <message>
        <source>read the tenants</source>
        <translation>Lesen der Mandanten</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: tenant [%2] not exists</source>
        <translation>Remote &apos;%1&apos;: Mandant [%2] existiert nicht</translation>
    </message>
    <message>
        <source>set the workflow&apos;s warning group</source>
        <translation>Setzen der Warngruppe des Workflows</translation>
    </message>
</context>
<context>
    <name>hg::DolphinSchedulerOrder</name>
    <message>
        <source>workflow instances have no type to sort by</source>
        <translation>Workflow-Instanzen haben keinen Typ, nach dem sortiert werden könnte</translation>
    </message>
    <message>
        <source>no such column to sort by</source>
        <translation>keine solche Spalte zum Sortieren</translation>
    </message>
</context>
<context>
    <name>hg::DolphinSchedulerQuartz</name>
    <message>
        <source>lock Quartz&apos;s triggers</source>
        <translation>Sperren der Quartz-Trigger</translation>
    </message>
    <message>
        <source>delete the Quartz trigger</source>
        <translation>Löschen des Quartz-Triggers</translation>
    </message>
    <message>
        <source>delete the Quartz job</source>
        <translation>Löschen des Quartz-Jobs</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: schedule %2 (%3) never fires again before its end: Quartz would refuse it</source>
        <translation>Gegenstelle „%1“: Zeitplan %2 (%3) löst vor seinem Ende nie mehr aus: Quartz würde ihn ablehnen</translation>
    </message>
    <message>
        <source>store the Quartz job</source>
        <translation>Speichern des Quartz-Jobs</translation>
    </message>
    <message>
        <source>store the Quartz trigger</source>
        <translation>Speichern des Quartz-Triggers</translation>
    </message>
    <message>
        <source>store the Quartz trigger&apos;s cron</source>
        <translation>Speichern des Cron-Ausdrucks des Quartz-Triggers</translation>
    </message>
</context>
<context>
    <name>hg::DolphinSchedulerSchema</name>
    <message>
        <source>remote &apos;%1&apos;: database &apos;%2&apos; holds no DolphinScheduler schema (neither t_ds_process_definition nor t_ds_workflow_definition)</source>
        <translation>Remote &apos;%1&apos;: Datenbank &apos;%2&apos; enthält kein DolphinScheduler-Schema (weder t_ds_process_definition noch t_ds_workflow_definition)</translation>
    </message>
    <message>
        <source>table %1</source>
        <translation>Tabelle %1</translation>
    </message>
    <message>
        <source>column %1.%2</source>
        <translation>Spalte %1.%2</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: the DolphinScheduler schema in database &apos;%2&apos; matches neither layout it can read; the %3 layout lacks %4</source>
        <translation>Remote &apos;%1&apos;: das DolphinScheduler-Schema in Datenbank &apos;%2&apos; passt zu keinem lesbaren Layout; dem Layout %3 fehlt %4</translation>
    </message>
</context>
<context>
    <name>hg::DolphinSchedulerWorkflowPage</name>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>Read the workflow and its instances again</source>
        <translation>Den Workflow und seine Instanzen neu lesen</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Zeitplan</translation>
    </message>
    <message>
        <source>Workflow instances</source>
        <translation>Workflow-Instanzen</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>Instanz</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 auf %2</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen…</translation>
    </message>
    <message>
        <source>%1, version %2 (code %3), %4 tasks%5</source>
        <translation>%1, Version %2 (Code %3), %4 Aufgaben%5</translation>
    </message>
    <message>
        <source>Online</source>
        <translation>Online</translation>
    </message>
    <message>
        <source>Offline</source>
        <translation>Offline</translation>
    </message>
    <message>
        <source>No schedule: it runs when started.</source>
        <translation>Kein Zeitplan: er läuft, wenn er gestartet wird.</translation>
    </message>
    <message>
        <source>Schedule %1 (%2), %3</source>
        <translation>Zeitplan %1 (%2), %3</translation>
    </message>
    <message>
        <source>online</source>
        <translation>online</translation>
    </message>
    <message>
        <source>offline</source>
        <translation>offline</translation>
    </message>
    <message>
        <source>Next: %1</source>
        <translation>Nächste: %1</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>&amp;Start…</source>
        <translation>&amp;Starten…</translation>
    </message>
    <message>
        <source>Queue a start command for DolphinScheduler&apos;s master, as its API server does</source>
        <translation>Einen Startbefehl für den Master von DolphinScheduler einreihen, wie es sein API-Server tut</translation>
    </message>
    <message>
        <source>&amp;Complement…</source>
        <translation>&amp;Nachholen…</translation>
    </message>
    <message>
        <source>Backfill the schedule&apos;s fire times in a range</source>
        <translation>Die Auslösezeitpunkte des Zeitplans in einem Zeitraum nachholen</translation>
    </message>
    <message>
        <source>Bring &amp;online</source>
        <translation>&amp;Online schalten</translation>
    </message>
    <message>
        <source>Release the definition, as DolphinScheduler&apos;s API server does</source>
        <translation>Die Definition freigeben, wie es der API-Server von DolphinScheduler tut</translation>
    </message>
    <message>
        <source>Take o&amp;ffline</source>
        <translation>O&amp;ffline schalten</translation>
    </message>
    <message>
        <source>Take the definition offline, and its schedule with it</source>
        <translation>Die Definition offline schalten und ihren Zeitplan mit ihr</translation>
    </message>
    <message>
        <source>Schedule o&amp;nline</source>
        <translation>Zeitplan onl&amp;ine</translation>
    </message>
    <message>
        <source>Its schedule online, with the Quartz job DolphinScheduler&apos;s masters fire it by</source>
        <translation>Ihren Zeitplan online schalten, mit dem Quartz-Job, nach dem die Master von DolphinScheduler ihn auslösen</translation>
    </message>
    <message>
        <source>Schedule off&amp;line</source>
        <translation>Zeitplan off&amp;line</translation>
    </message>
    <message>
        <source>Its schedule offline, its Quartz job deleted</source>
        <translation>Ihren Zeitplan offline schalten, sein Quartz-Job gelöscht</translation>
    </message>
    <message>
        <source>Res&amp;ume</source>
        <translation>Fortset&amp;zen</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>S&amp;toppen</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>&amp;Pausieren</translation>
    </message>
    <message>
        <source>Done as DolphinScheduler user %1</source>
        <translation>Als DolphinScheduler-Benutzer %1 getan</translation>
    </message>
    <message>
        <source>DolphinScheduler stops a running instance by telling its master; Hourglass can only stop one still waiting</source>
        <translation>DolphinScheduler stoppt eine laufende Instanz, indem es ihrem Master Bescheid gibt; Hourglass kann nur eine noch wartende stoppen</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Retries</source>
        <translation>Wiederholungen</translation>
    </message>
    <message>
        <source>Task instances</source>
        <translation>Aufgaben-Instanzen</translation>
    </message>
    <message>
        <source>Task log</source>
        <translation>Aufgabenprotokoll</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Select an instance to see its task instances.</source>
        <translation>Eine Instanz wählen, um ihre Aufgaben-Instanzen zu sehen.</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>This instance has no task instances yet.</source>
        <translation>Diese Instanz hat noch keine Aufgaben-Instanzen.</translation>
    </message>
    <message>
        <source>DolphinScheduler keeps task logs on its workers&apos; disks, not in its database: select a task to see where its log is.</source>
        <translation>DolphinScheduler hält Aufgabenprotokolle auf den Platten seiner Worker, nicht in seiner Datenbank: eine Aufgabe wählen, um zu sehen, wo ihr Protokoll liegt.</translation>
    </message>
    <message>
        <source>No log yet: the task has not reached a worker.</source>
        <translation>Noch kein Protokoll: die Aufgabe hat noch keinen Worker erreicht.</translation>
    </message>
    <message>
        <source>Its log is on worker %1, in %2 (DolphinScheduler keeps task logs on the workers&apos; disks, not in its database).</source>
        <translation>Ihr Protokoll liegt auf Worker %1, in %2 (DolphinScheduler hält Aufgabenprotokolle auf den Platten der Worker, nicht in seiner Datenbank).</translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation>(unbekannt)</translation>
    </message>
    <message numerus="yes">
        <source>Queued for DolphinScheduler&apos;s master: command %n (%1).</source>
        <translation>
            <numerusform>Für den Master von DolphinScheduler eingereiht: Befehl %1.</numerusform>
            <numerusform>Für den Master von DolphinScheduler eingereiht: %n Befehle (%1).</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is online.</source>
        <translation>%1 ist online.</translation>
    </message>
    <message>
        <source>%1 is offline, and its schedule with it.</source>
        <translation>%1 ist offline, und sein Zeitplan mit ihm.</translation>
    </message>
    <message>
        <source>The schedule of %1 is online.</source>
        <translation>Der Zeitplan von %1 ist online.</translation>
    </message>
    <message>
        <source>The schedule of %1 is offline.</source>
        <translation>Der Zeitplan von %1 ist offline.</translation>
    </message>
    <message>
        <source>Instance %1 stopped.</source>
        <translation>Instanz %1 gestoppt.</translation>
    </message>
    <message>
        <source>Instance %1 paused.</source>
        <translation>Instanz %1 pausiert.</translation>
    </message>
    <message>
        <source>Instance %1: command %2 queued for DolphinScheduler&apos;s master.</source>
        <translation>Instanz %1: Befehl %2 für den Master von DolphinScheduler eingereiht.</translation>
    </message>
    <message>
        <source>DolphinScheduler starts only an online definition</source>
        <translation>DolphinScheduler startet nur eine Definition, die online ist</translation>
    </message>
    <message>
        <source>R&amp;erun</source>
        <translation>&amp;Erneut ausführen</translation>
    </message>
    <message>
        <source>Rerun failed t&amp;asks</source>
        <translation>Fehlgeschlagene Aufgaben &amp;wiederholen</translation>
    </message>
    <message>
        <source>Started since</source>
        <translation>Gestartet seit</translation>
    </message>
    <message>
        <source>Any time</source>
        <translation>Jederzeit</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>Letzte 24 Stunden</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>Letzte 30 Tage</translation>
    </message>
    <message>
        <source>&amp;More instances</source>
        <translation>Weite&amp;re Instanzen</translation>
    </message>
    <message>
        <source>Started:</source>
        <translation>Gestartet:</translation>
    </message>
    <message>
        <source>no warnings</source>
        <translation>keine Warnungen</translation>
    </message>
    <message>
        <source>warns on success</source>
        <translation>warnt bei Erfolg</translation>
    </message>
    <message>
        <source>warns on failure</source>
        <translation>warnt bei Fehlschlag</translation>
    </message>
    <message>
        <source>warns always</source>
        <translation>warnt immer</translation>
    </message>
    <message>
        <source>From %1 to %2 · when a task fails: %3 · %4 · worker group %5</source>
        <translation>Von %1 bis %2 · wenn eine Aufgabe fehlschlägt: %3 · %4 · Worker-Gruppe %5</translation>
    </message>
    <message>
        <source>continue</source>
        <translation>weitermachen</translation>
    </message>
    <message>
        <source>end the run</source>
        <translation>den Lauf beenden</translation>
    </message>
    <message>
        <source>Failed onl&amp;y</source>
        <translation>Nur fehlgeschla&amp;gene</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>Beendet</translation>
    </message>
    <message>
        <source>More task &amp;instances</source>
        <translation>Weitere A&amp;ufgaben-Instanzen</translation>
    </message>
    <message numerus="yes">
        <source>The next %n instances, in the order shown</source>
        <translation>
            <numerusform>Die nächste Instanz, in der gezeigten Reihenfolge</numerusform>
            <numerusform>Die nächsten %n Instanzen, in der gezeigten Reihenfolge</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The next %n task instances, in the order shown</source>
        <translation>
            <numerusform>Die nächste Aufgaben-Instanz, in der gezeigten Reihenfolge</numerusform>
            <numerusform>Die nächsten %n Aufgaben-Instanzen, in der gezeigten Reihenfolge</numerusform>
        </translation>
    </message>
    <message>
        <source>Its DAG cannot be drawn whole: %1. Its schedule and its instances can still be read.</source>
        <translation>Sein DAG kann nicht vollständig gezeichnet werden: %1. Sein Zeitplan und seine Instanzen können weiterhin gelesen werden.</translation>
    </message>
</context>
<context>
    <name>hg::DstEffect</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 und %n weitere</numerusform>
            <numerusform>%1 und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: the clocks go forward from %2 to %3</source>
        <translation>%1: die Uhren werden von %2 auf %3 vorgestellt</translation>
    </message>
    <message>
        <source>%1; the gap takes %2: the schedule runs once at %3 instead</source>
        <translation>%1; die Lücke verschluckt %2: der Zeitplan läuft stattdessen einmal um %3</translation>
    </message>
    <message>
        <source>%1; the gap takes %2: skipped, as cronie skips a wildcard job&apos;s times</source>
        <translation>%1; die Lücke verschluckt %2: übersprungen, wie cronie die Zeiten eines Platzhalter-Jobs überspringt</translation>
    </message>
    <message>
        <source>%1; the gap takes %2: skipped</source>
        <translation>%1; die Lücke verschluckt %2: übersprungen</translation>
    </message>
    <message>
        <source>%1; the gap takes %2: each runs right after it, from %3, as cronie runs a fixed-time job&apos;s times</source>
        <translation>%1; die Lücke verschluckt %2: jede läuft direkt danach, ab %3, wie cronie die Zeiten eines Jobs mit fester Zeit ausführt</translation>
    </message>
    <message>
        <source>%1: the clocks go back from %2 to %3</source>
        <translation>%1: die Uhren werden von %2 auf %3 zurückgestellt</translation>
    </message>
    <message>
        <source>%1; these times come twice: %2; the schedule runs both times</source>
        <translation>%1; diese Zeiten kommen zweimal: %2; der Zeitplan läuft beide Male</translation>
    </message>
    <message>
        <source>%1; these times come twice: %2; the schedule runs the first time only</source>
        <translation>%1; diese Zeiten kommen zweimal: %2; der Zeitplan läuft nur beim ersten Mal</translation>
    </message>
</context>
<context>
    <name>hg::DurationBars</name>
    <message>
        <source>median %1</source>
        <translation>Median %1</translation>
    </message>
    <message>
        <source>Run %1: %2, %3</source>
        <translation>Lauf %1: %2, %3</translation>
    </message>
    <message>
        <source>not finished</source>
        <translation>nicht beendet</translation>
    </message>
</context>
<context>
    <name>hg::EffectiveCadence</name>
    <message>
        <source>every %1</source>
        <translation>alle %1</translation>
    </message>
    <message>
        <source>configured %1</source>
        <translation>eingestellt %1</translation>
    </message>
    <message>
        <source>configured to fire rarely</source>
        <translation>eingestellt auf seltene Ausführung</translation>
    </message>
    <message>
        <source>no run %1</source>
        <translation>kein Lauf %1</translation>
    </message>
    <message>
        <source>one run %1</source>
        <translation>ein Lauf %1</translation>
    </message>
    <message>
        <source>effective %1 %2</source>
        <translation>tatsächlich %1 %2</translation>
    </message>
    <message>
        <source>%1; effective as configured %2</source>
        <translation>%1; tatsächlich wie eingestellt %2</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1; %2</translation>
    </message>
    <message>
        <source>runs take %1 and the overlap policy skips</source>
        <translation>Läufe dauern %1 und die Überlappungsregel überspringt</translation>
    </message>
    <message>
        <source>the overlap policy skipped %1 fire times while a run still ran</source>
        <translation>die Überlappungsregel übersprang %1 Ausführungszeiten, während ein Lauf noch lief</translation>
    </message>
    <message>
        <source>%1 fire times came too late and the misfire policy skipped them</source>
        <translation>%1 Ausführungszeiten kamen zu spät und die Regel für Versäumtes übersprang sie</translation>
    </message>
    <message>
        <source>%1 missed fire times were coalesced into later runs</source>
        <translation>%1 versäumte Ausführungszeiten wurden in spätere Läufe zusammengefasst</translation>
    </message>
    <message>
        <source>%1 fire times were missed while the engine was away</source>
        <translation>%1 Ausführungszeiten wurden versäumt, während die Engine nicht lief</translation>
    </message>
    <message>
        <source>its calendar ruled out %1 fire times</source>
        <translation>sein Kalender schloss %1 Ausführungszeiten aus</translation>
    </message>
    <message>
        <source>schedules were paused over %1 fire times</source>
        <translation>Zeitpläne waren über %1 Ausführungszeiten pausiert</translation>
    </message>
    <message>
        <source>%1; %2: %3</source>
        <translation>%1; %2: %3</translation>
    </message>
    <message>
        <source>%1 fire times passed without a network, which the chain needs</source>
        <translation>%1 Auslösezeiten vergingen ohne Netzwerk, das die Kette braucht</translation>
    </message>
</context>
<context>
    <name>hg::Engine</name>
    <message>
        <source>The clock went back %1: nothing fires twice; schedules go on from their next fire time</source>
        <translation>Die Uhr ging %1 zurück: nichts löst zweimal aus; die Zeitpläne machen bei ihrer nächsten Auslösezeit weiter</translation>
    </message>
    <message>
        <source>Asleep %1</source>
        <translation>Im Ruhezustand %1</translation>
    </message>
    <message>
        <source>The clock jumped forward %1</source>
        <translation>Die Uhr sprang %1 vor</translation>
    </message>
    <message>
        <source>%1: schedules are paused; their misfire policies decide on resume</source>
        <translation>%1: die Zeitpläne sind pausiert; ihre Regeln für Verpasstes entscheiden beim Fortsetzen</translation>
    </message>
    <message>
        <source>%1: the store is unreachable; missed runs are decided once it is back</source>
        <translation>%1: der Speicher ist nicht erreichbar; über verpasste Läufe wird entschieden, sobald er zurück ist</translation>
    </message>
    <message>
        <source>%1: no run missed</source>
        <translation>%1: kein Lauf verpasst</translation>
    </message>
    <message>
        <source>policy %1</source>
        <translation>Regel %1</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>mindestens %1</translation>
    </message>
    <message>
        <source>%1 run now</source>
        <translation>%1 laufen jetzt</translation>
    </message>
    <message>
        <source>the rest</source>
        <translation>der Rest</translation>
    </message>
    <message>
        <source>%1: %2 runs of one chain missed; %3, %4 skipped</source>
        <translation>%1: %2 Läufe einer Kette verpasst; %3, %4 übersprungen</translation>
    </message>
    <message>
        <source>%1: %2 runs of %3 chains missed; %4, %5 skipped</source>
        <translation>%1: %2 Läufe von %3 Ketten verpasst; %4, %5 übersprungen</translation>
    </message>
    <message>
        <source>what an engine held when it stopped (%1) cannot be written to the store yet: %2; nothing is started or recovered until it can</source>
        <translation>was eine Engine beim Beenden zurückhielt (%1), kann noch nicht in den Speicher geschrieben werden: %2; bis dahin wird nichts gestartet oder wiederhergestellt</translation>
    </message>
    <message>
        <source>%1 started late</source>
        <translation>%1 startete verspätet</translation>
    </message>
    <message>
        <source>%1 runs too long</source>
        <translation>%1 läuft zu lange</translation>
    </message>
    <message>
        <source>%1 ended too soon</source>
        <translation>%1 endete zu früh</translation>
    </message>
    <message>
        <source>%1 missed its deadline</source>
        <translation>%1 hat seine Frist verfehlt</translation>
    </message>
    <message>
        <source>Run %1 %2.</source>
        <translation>Lauf %1 %2.</translation>
    </message>
    <message>
        <source>%1.</source>
        <translation>%1.</translation>
    </message>
    <message>
        <source>, %1 wait for a decision (policy ask)</source>
        <translation>, %1 warten auf eine Entscheidung (Regel ask)</translation>
    </message>
    <message>
        <source>stopped on request</source>
        <translation>auf Anforderung angehalten</translation>
    </message>
    <message>
        <source>stopped: the engine shut down</source>
        <translation>angehalten: Die Engine wurde beendet</translation>
    </message>
    <message>
        <source>not started: the computer has no network, and this chain runs only with one</source>
        <translation>nicht gestartet: der Rechner hat kein Netzwerk, und diese Kette läuft nur mit einem</translation>
    </message>
</context>
<context>
    <name>hg::EngineEventRecorder</name>
    <message>
        <source>engine %1 lost its lease</source>
        <translation>Engine %1 hat ihre Lease verloren</translation>
    </message>
    <message>
        <source>Engine %1 on %2 lost its lease: %3. Its runs were stopped there and it registered anew.</source>
        <translation>Engine %1 auf %2 hat ihre Lease verloren: %3. Ihre Läufe wurden dort angehalten, und sie hat sich neu angemeldet.</translation>
    </message>
    <message numerus="yes">
        <source>the store was unreachable for %n minute(s) (engine %1)</source>
        <translation>
            <numerusform>der Speicher war %n Minute lang nicht erreichbar (Engine %1)</numerusform>
            <numerusform>der Speicher war %n Minuten lang nicht erreichbar (Engine %1)</numerusform>
        </translation>
    </message>
    <message>
        <source>Engine %1 on %2 could not reach its store from %3 to %4: %5. Nothing new started meanwhile; what ran went on, and its results were written once the store was back.</source>
        <translation>Engine %1 auf %2 konnte ihren Speicher von %3 bis %4 nicht erreichen: %5. Nichts Neues startete in der Zeit; was lief, lief weiter, und seine Ergebnisse wurden geschrieben, als der Speicher zurück war.</translation>
    </message>
</context>
<context>
    <name>hg::EngineLease</name>
    <message>
        <source>another engine already serves %1: %2</source>
        <translation>eine andere Engine bedient bereits %1: %2</translation>
    </message>
</context>
<context>
    <name>hg::EngineSessionRepository</name>
    <message>
        <source>read engine session</source>
        <translation>Lesen der Engine-Sitzung</translation>
    </message>
    <message>
        <source>replace expired engine session</source>
        <translation>Ersetzen der abgelaufenen Engine-Sitzung</translation>
    </message>
    <message>
        <source>register engine session</source>
        <translation>Anmelden der Engine-Sitzung</translation>
    </message>
    <message>
        <source>heartbeat engine session</source>
        <translation>Lebenszeichen der Engine-Sitzung</translation>
    </message>
    <message>
        <source>engine session %1 was taken over</source>
        <translation>Engine-Sitzung %1 wurde übernommen</translation>
    </message>
    <message>
        <source>release engine session</source>
        <translation>Freigeben der Engine-Sitzung</translation>
    </message>
    <message>
        <source>list engine sessions</source>
        <translation>Auflisten der Engine-Sitzungen</translation>
    </message>
    <message>
        <source>list expired engine sessions</source>
        <translation>Auflisten der abgelaufenen Engine-Sitzungen</translation>
    </message>
    <message>
        <source>draw an engine epoch</source>
        <translation>Ziehen einer Engine-Epoche</translation>
    </message>
    <message>
        <source>read the database clock</source>
        <translation>Lesen der Datenbankuhr</translation>
    </message>
    <message>
        <source>&apos;%1&apos;, pid %2 on %3, serving since %4</source>
        <translation>&apos;%1&apos;, PID %2 auf %3, im Dienst seit %4</translation>
    </message>
    <message>
        <source>&apos;%1&apos;, pid %2 on %3 (%4), serving since %5</source>
        <translation>&apos;%1&apos;, PID %2 auf %3 (%4), im Dienst seit %5</translation>
    </message>
    <message>
        <source>an engine of the same name already runs: %1; its lease holds until %2; give this one another name with HOURGLASS_ENGINE_NAME</source>
        <translation>eine Engine gleichen Namens läuft bereits: %1; ihre Lease gilt bis %2; geben Sie dieser mit HOURGLASS_ENGINE_NAME einen anderen Namen</translation>
    </message>
    <message>
        <source>an engine of the same name registered at the same moment: %1; give this one another name with HOURGLASS_ENGINE_NAME</source>
        <translation>eine Engine gleichen Namens hat sich im selben Moment angemeldet: %1; geben Sie dieser mit HOURGLASS_ENGINE_NAME einen anderen Namen</translation>
    </message>
</context>
<context>
    <name>hg::FileTriggerRepository</name>
    <message>
        <source>read what a file trigger has seen</source>
        <translation>lesen, was ein Dateiauslöser gesehen hat</translation>
    </message>
    <message>
        <source>read a file trigger</source>
        <translation>einen Dateiauslöser lesen</translation>
    </message>
    <message>
        <source>no trigger %1</source>
        <translation>kein Auslöser %1</translation>
    </message>
    <message>
        <source>note what a file trigger found first</source>
        <translation>festhalten, was ein Dateiauslöser zuerst vorfand</translation>
    </message>
    <message>
        <source>note what a file trigger has seen</source>
        <translation>festhalten, was ein Dateiauslöser gesehen hat</translation>
    </message>
    <message>
        <source>start a run of a file trigger</source>
        <translation>einen Lauf eines Dateiauslösers starten</translation>
    </message>
    <message>
        <source>keep the files of a missed trigger</source>
        <translation>die Dateien eines verpassten Auslösers aufbewahren</translation>
    </message>
    <message>
        <source>read the files of a missed trigger</source>
        <translation>die Dateien eines verpassten Auslösers lesen</translation>
    </message>
</context>
<context>
    <name>hg::FileTriggerSpec</name>
    <message>
        <source>--events: name at least one of created, modified, deleted, moved</source>
        <translation>--events: nennen Sie mindestens eines von created, modified, deleted, moved</translation>
    </message>
    <message>
        <source>--settle: from 0 s to 24 h</source>
        <translation>--settle: von 0 s bis 24 h</translation>
    </message>
    <message>
        <source>--batch: a window from 1 s to 24 h</source>
        <translation>--batch: ein Fenster von 1 s bis 24 h</translation>
    </message>
    <message>
        <source>--max-per-minute: from 1 to %1 (0: no limit)</source>
        <translation>--max-per-minute: von 1 bis %1 (0: keine Grenze)</translation>
    </message>
    <message>
        <source>--poll: an interval from 100 ms to 24 h</source>
        <translation>--poll: ein Abstand von 100 ms bis 24 h</translation>
    </message>
</context>
<context>
    <name>hg::FileTriggerWatch</name>
    <message>
        <source>trigger %1 (%2): watching again</source>
        <translation>Auslöser %1 (%2): beobachtet wieder</translation>
    </message>
    <message>
        <source>trigger %1 (%2): %3</source>
        <translation>Auslöser %1 (%2): %3</translation>
    </message>
</context>
<context>
    <name>hg::FileTriggerWatcher</name>
    <message>
        <source>polled every %1 s: inotify&apos;s watch limit is reached (fs.inotify.max_user_watches)</source>
        <translation>alle %1 s abgefragt: die Beobachtungsgrenze von inotify ist erreicht (fs.inotify.max_user_watches)</translation>
    </message>
    <message>
        <source>polled every %1 s: %2 is on %3, where inotify sees no changes made on other machines</source>
        <translation>alle %1 s abgefragt: %2 liegt auf %3, wo inotify keine Änderungen anderer Rechner sieht</translation>
    </message>
    <message>
        <source>no permission to read the folder %1</source>
        <translation>keine Berechtigung, den Ordner %1 zu lesen</translation>
    </message>
    <message>
        <source>the folder %1 is gone; watched again when it is back</source>
        <translation>der Ordner %1 ist weg; er wird wieder beobachtet, sobald er zurück ist</translation>
    </message>
    <message numerus="yes">
        <source>%n file name(s) here are not UTF-8 and cannot start a run (%1); rename them</source>
        <translation>
            <numerusform>%n Dateiname hier ist kein UTF-8 und kann keinen Lauf starten (%1); benennen Sie ihn um</numerusform>
            <numerusform>%n Dateinamen hier sind kein UTF-8 und können keinen Lauf starten (%1); benennen Sie sie um</numerusform>
        </translation>
    </message>
    <message>
        <source>polled every %1 s: inotify cannot watch %2 (%3)</source>
        <translation>alle %1 s abgefragt: inotify kann %2 nicht beobachten (%3)</translation>
    </message>
    <message>
        <source>%1 is not a folder; watched again when it is one</source>
        <translation>%1 ist kein Ordner; wieder beobachtet, sobald es einer ist</translation>
    </message>
    <message numerus="yes">
        <source>%n path(s) here are longer than the system allows (%1 bytes) and cannot start a run (%2)</source>
        <translation>
            <numerusform>%n Pfad hier ist länger, als das System erlaubt (%1 Bytes), und kann keinen Lauf starten (%2)</numerusform>
            <numerusform>%n Pfade hier sind länger, als das System erlaubt (%1 Bytes), und können keinen Lauf starten (%2)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hg::FloodGate</name>
    <message numerus="yes">
        <source>held: the channel&apos;s daily cap of %n message(s) is reached; a digest at midnight tells of it</source>
        <translation>
            <numerusform>zurückgehalten: die Tagesgrenze des Kanals von %n Nachricht ist erreicht; eine Sammelnachricht um Mitternacht berichtet davon</numerusform>
            <numerusform>zurückgehalten: die Tagesgrenze des Kanals von %n Nachrichten ist erreicht; eine Sammelnachricht um Mitternacht berichtet davon</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>held: more than %n message(s) in %1 s; a digest at the window&apos;s end tells of it</source>
        <translation>
            <numerusform>zurückgehalten: mehr als %n Nachricht in %1 s; eine Sammelnachricht am Ende des Zeitfensters berichtet davon</numerusform>
            <numerusform>zurückgehalten: mehr als %n Nachrichten in %1 s; eine Sammelnachricht am Ende des Zeitfensters berichtet davon</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hg::ForeignImport</name>
    <message>
        <source>a systemd timer is read from its file, with the service beside it, not from standard input</source>
        <translation>ein systemd-Timer wird aus seiner Datei gelesen, mit dem Dienst daneben, nicht von der Standardeingabe</translation>
    </message>
    <message>
        <source>unknown kind of file</source>
        <translation>unbekannte Art von Datei</translation>
    </message>
    <message>
        <source>there is no default e-mail channel yet: the mail routes wait for one. Add it with `hourglass channel add NAME --kind email --url smtp://HOST --from ADDR --to ADDR --default`</source>
        <translation>es gibt noch keinen Standard-E-Mail-Kanal: die E-Mail-Routen warten auf einen. Anlegen mit `hourglass channel add NAME --kind email --url smtp://HOST --from ADDR --to ADDR --default`</translation>
    </message>
</context>
<context>
    <name>hg::GlobPattern</name>
    <message>
        <source>name the files to watch</source>
        <translation>nennen Sie die zu beobachtenden Dateien</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an absolute path (start it with /)</source>
        <translation>&apos;%1&apos; ist kein absoluter Pfad (beginnen Sie ihn mit /)</translation>
    </message>
    <message>
        <source>the path holds a NUL character</source>
        <translation>der Pfad enthält ein NUL-Zeichen</translation>
    </message>
    <message>
        <source>&apos;/&apos; names no files; name them (/srv/in/*.csv)</source>
        <translation>&apos;/&apos; nennt keine Dateien; nennen Sie sie (/srv/in/*.csv)</translation>
    </message>
    <message>
        <source>more than %1 folders deep</source>
        <translation>mehr als %1 Ordner tief</translation>
    </message>
    <message>
        <source>&apos;%1&apos; holds &apos;%2&apos;: name the folder itself</source>
        <translation>&apos;%1&apos; enthält &apos;%2&apos;: nennen Sie den Ordner selbst</translation>
    </message>
    <message>
        <source>&apos;%1&apos; ends in **: say which files (**/*.csv, **/*)</source>
        <translation>&apos;%1&apos; endet auf **: sagen Sie, welche Dateien (**/*.csv, **/*)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; names a folder; name its files (%1*)</source>
        <translation>„%1“ nennt einen Ordner; seine Dateien nennen (%1*)</translation>
    </message>
</context>
<context>
    <name>hg::GuiApplication</name>
    <message>
        <source>Daily backup saved: %1</source>
        <translation>Tägliche Sicherung gespeichert: %1</translation>
    </message>
    <message>
        <source>The daily backup failed: %1</source>
        <translation>Die tägliche Sicherung ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Backup failed</source>
        <translation>Sicherung fehlgeschlagen</translation>
    </message>
    <message>
        <source>The store cannot be read.

%1</source>
        <translation>Der Datenspeicher kann nicht gelesen werden.

%1</translation>
    </message>
    <message>
        <source>Restore from backup…</source>
        <translation>Aus Sicherung wiederherstellen…</translation>
    </message>
    <message>
        <source>Restore from backup</source>
        <translation>Aus Sicherung wiederherstellen</translation>
    </message>
    <message>
        <source>The backup was not restored.

%1</source>
        <translation>Die Sicherung wurde nicht wiederhergestellt.

%1</translation>
    </message>
    <message>
        <source>%1 was restored from %2.</source>
        <translation>%1 wurde aus %2 wiederhergestellt.</translation>
    </message>
    <message>
        <source>%1 was restored from %2.

The store it replaced is kept as %3.</source>
        <translation>%1 wurde aus %2 wiederhergestellt.

Der ersetzte Datenspeicher bleibt als %3 erhalten.</translation>
    </message>
    <message>
        <source>Hourglass</source>
        <translation>Hourglass</translation>
    </message>
    <message>
        <source>New to Hourglass? Help → Getting started (F1) shows the first steps.</source>
        <translation>Neu bei Hourglass? Hilfe → Erste Schritte (F1) zeigt die ersten Schritte.</translation>
    </message>
    <message>
        <source>A notification was not delivered</source>
        <translation>Eine Benachrichtigung wurde nicht zugestellt</translation>
    </message>
    <message>
        <source>To &apos;%1&apos;: %2 (see `hourglass deliveries`)</source>
        <translation>An „%1“: %2 (siehe `hourglass deliveries`)</translation>
    </message>
</context>
<context>
    <name>hg::HeldJournal</name>
    <message>
        <source>the file did not keep what was written</source>
        <translation>die Datei hat das Geschriebene nicht behalten</translation>
    </message>
    <message>
        <source>the engine&apos;s held state changes could be saved nowhere (%1)</source>
        <translation>die zurückgehaltenen Zustandsänderungen der Engine ließen sich nirgends sichern (%1)</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 holds a state change that cannot be read</source>
        <translation>%1 enthält eine Zustandsänderung, die sich nicht lesen lässt</translation>
    </message>
    <message>
        <source>%1 holds what an engine held for another file once at this path</source>
        <translation>%1 enthält, was eine Engine für eine andere Datei festhielt, die einmal unter diesem Pfad lag</translation>
    </message>
</context>
<context>
    <name>hg::HelpDialogs</name>
    <message>
        <source>Apply the task form</source>
        <translation>Aufgabenformular übernehmen</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>About Hourglass</source>
        <translation>Über Hourglass</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Hourglass %1&lt;/h3&gt;&lt;p&gt;A desktop job scheduler: chains of tasks, second-precise cron, live logs.&lt;/p&gt;&lt;p&gt;Store: %2&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Hourglass %1&lt;/h3&gt;&lt;p&gt;Ein Desktop-Aufgabenplaner: Ketten von Aufgaben, sekundengenaues Cron, Live-Protokolle.&lt;/p&gt;&lt;p&gt;Datenspeicher: %2&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Canvas: move between tasks</source>
        <translation>Zeichenfläche: zwischen Aufgaben wechseln</translation>
    </message>
    <message>
        <source>Arrow keys</source>
        <translation>Pfeiltasten</translation>
    </message>
    <message>
        <source>Canvas: edit the selected task</source>
        <translation>Zeichenfläche: ausgewählte Aufgabe bearbeiten</translation>
    </message>
    <message>
        <source>Canvas: remove the selected task or dependency</source>
        <translation>Zeichenfläche: ausgewählte Aufgabe oder Abhängigkeit entfernen</translation>
    </message>
    <message>
        <source>Leave a table or a field</source>
        <translation>Tabelle oder Feld verlassen</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Getting started&lt;/h3&gt;&lt;ol&gt;&lt;li&gt;&lt;b&gt;A project and a chain.&lt;/b&gt; File → New project (Ctrl+Shift+N), then New chain (Ctrl+N): a chain is one job, its tasks run in the order you give them.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Tasks.&lt;/b&gt; Add task (Ctrl+T), give it a name, a kind (a shell script, a program, SQL, HTTP, another chain…) and what it runs; Enter applies it.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Their order.&lt;/b&gt; Drag from one task&apos;s right-hand port to another, or select a task and press Ctrl+K: the second runs when the first succeeds (or ends, or fails).&lt;/li&gt;&lt;li&gt;&lt;b&gt;When.&lt;/b&gt; Add schedule (Ctrl+Shift+S): a cron expression such as &lt;tt&gt;30 6 * * 1-5&lt;/tt&gt;, its time zone, and what to do with fire times missed while the computer was off.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Run it now&lt;/b&gt; with Ctrl+R, and follow it in Runs (Ctrl+3): each attempt, its live output, and why it failed.&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;The example project shows a finished chain. On a server, &lt;tt&gt;hourglass serve&lt;/tt&gt; runs the same schedules without a window; &lt;tt&gt;man hourglass&lt;/tt&gt; and &lt;tt&gt;hourglass --help&lt;/tt&gt; list every command. Help → Keyboard shortcuts lists every key.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Erste Schritte&lt;/h3&gt;&lt;ol&gt;&lt;li&gt;&lt;b&gt;Ein Projekt und eine Kette.&lt;/b&gt; Datei → Neues Projekt (Strg+Umschalt+N), dann Neue Kette (Strg+N): Eine Kette ist ein Auftrag, ihre Aufgaben laufen in der Reihenfolge, die Sie ihnen geben.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Aufgaben.&lt;/b&gt; Aufgabe hinzufügen (Strg+T), einen Namen geben, eine Art (ein Shell-Skript, ein Programm, SQL, HTTP, eine andere Kette …) und was sie ausführt; die Eingabetaste übernimmt sie.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Ihre Reihenfolge.&lt;/b&gt; Ziehen Sie vom rechten Anschluss einer Aufgabe zu einer anderen, oder wählen Sie eine Aufgabe und drücken Sie Strg+K: Die zweite läuft, wenn die erste gelingt (oder endet, oder fehlschlägt).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Wann.&lt;/b&gt; Zeitplan hinzufügen (Strg+Umschalt+S): ein Cron-Ausdruck wie &lt;tt&gt;30 6 * * 1-5&lt;/tt&gt;, seine Zeitzone, und was mit Zeitpunkten geschieht, die verpasst wurden, während der Rechner aus war.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Jetzt ausführen&lt;/b&gt; mit Strg+R, und in Läufe (Strg+3) verfolgen: jeder Versuch, seine laufende Ausgabe, und warum er fehlschlug.&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;Das Beispielprojekt zeigt eine fertige Kette. Auf einem Server führt &lt;tt&gt;hourglass serve&lt;/tt&gt; dieselben Zeitpläne ohne Fenster aus; &lt;tt&gt;man hourglass&lt;/tt&gt; und &lt;tt&gt;hourglass --help&lt;/tt&gt; nennen jeden Befehl. Hilfe → Tastenkürzel nennt jede Taste.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Getting started</source>
        <translation>Erste Schritte</translation>
    </message>
    <message>
        <source>The manual is not installed here. &lt;tt&gt;man hourglass&lt;/tt&gt; describes the command line; Help → Getting started the window.</source>
        <translation>Das Handbuch ist hier nicht installiert. &lt;tt&gt;man hourglass&lt;/tt&gt; beschreibt die Befehlszeile, Hilfe → Erste Schritte das Fenster.</translation>
    </message>
    <message>
        <source>No program here opens the manual. It is the file&lt;br&gt;&lt;tt&gt;%1&lt;/tt&gt;&lt;br&gt;(Markdown: any text editor reads it); &lt;tt&gt;man hourglass&lt;/tt&gt; describes the command line.</source>
        <translation>Kein Programm hier öffnet das Handbuch. Es ist die Datei&lt;br&gt;&lt;tt&gt;%1&lt;/tt&gt;&lt;br&gt;(Markdown: jeder Texteditor liest sie); &lt;tt&gt;man hourglass&lt;/tt&gt; beschreibt die Befehlszeile.</translation>
    </message>
    <message>
        <source>Manual</source>
        <translation>Handbuch</translation>
    </message>
</context>
<context>
    <name>hg::HttpRequestForm</name>
    <message>
        <source>Header</source>
        <translation>Header</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Request body (optional)</source>
        <translation>Anfrageinhalt (optional)</translation>
    </message>
    <message>
        <source>2xx; or a list: 200, 201</source>
        <translation>2xx; oder eine Liste: 200, 201</translation>
    </message>
    <message>
        <source>URL:</source>
        <translation>URL:</translation>
    </message>
    <message>
        <source>Method:</source>
        <translation>Methode:</translation>
    </message>
    <message>
        <source>Headers:</source>
        <translation>Header:</translation>
    </message>
    <message>
        <source>Body:</source>
        <translation>Inhalt:</translation>
    </message>
    <message>
        <source>Expect status:</source>
        <translation>Erwarteter Status:</translation>
    </message>
</context>
<context>
    <name>hg::HttpRequestSpec</name>
    <message>
        <source>%1: &apos;%2&apos; is not an http or https URL</source>
        <translation>%1: „%2“ ist keine http- oder https-URL</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not one of %2</source>
        <translation>„%1“ ist nicht eines von %2</translation>
    </message>
    <message>
        <source>the value of &apos;%1&apos; must be text</source>
        <translation>der Wert von „%1“ muss Text sein</translation>
    </message>
    <message>
        <source>expected an HTTP status (100-599) or a list of them</source>
        <translation>erwartet wird ein HTTP-Status (100-599) oder eine Liste davon</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a header name (letters, digits and !#$%&amp;&apos;*+-.^_`|~)</source>
        <translation>&apos;%1&apos; ist kein Header-Name (Buchstaben, Ziffern und !#$%&amp;&apos;*+-.^_`|~)</translation>
    </message>
    <message>
        <source>the value of &apos;%1&apos; holds a control character</source>
        <translation>der Wert von &apos;%1&apos; enthält ein Steuerzeichen</translation>
    </message>
</context>
<context>
    <name>hg::HttpServer</name>
    <message>
        <source>cannot listen on %1 port %2: %3</source>
        <translation>kann nicht auf %1 Port %2 lauschen: %3</translation>
    </message>
    <message>
        <source>the address is taken or not this machine&apos;s, or the certificate or key is not valid PEM</source>
        <translation>die Adresse ist belegt oder nicht die dieses Rechners, oder Zertifikat oder Schlüssel sind kein gültiges PEM</translation>
    </message>
    <message>
        <source>the address is taken or not this machine&apos;s</source>
        <translation>die Adresse ist belegt oder nicht die dieses Rechners</translation>
    </message>
    <message>
        <source>two Content-Length headers</source>
        <translation>zwei Content-Length-Header</translation>
    </message>
    <message>
        <source>the body is over %1 bytes</source>
        <translation>der Inhalt ist größer als %1 Bytes</translation>
    </message>
    <message>
        <source>too many request bodies are being read; try again later</source>
        <translation>es werden zu viele Anfrageinhalte gelesen; später erneut versuchen</translation>
    </message>
</context>
<context>
    <name>hg::ICalendarReader</name>
    <message>
        <source>not an iCalendar file: libical could not read it</source>
        <translation>keine iCalendar-Datei: libical konnte sie nicht lesen</translation>
    </message>
    <message>
        <source>not an iCalendar file: it has no VCALENDAR</source>
        <translation>keine iCalendar-Datei: sie hat kein VCALENDAR</translation>
    </message>
    <message>
        <source>event &apos;%1&apos;: its repetition rule cannot be read</source>
        <translation>Termin „%1“: seine Wiederholungsregel ist nicht lesbar</translation>
    </message>
    <message>
        <source>the iCalendar file holds no events</source>
        <translation>die iCalendar-Datei enthält keine Termine</translation>
    </message>
</context>
<context>
    <name>hg::ImportDialog</name>
    <message>
        <source>Import</source>
        <translation>Importieren</translation>
    </message>
    <message>
        <source>Hourglass export (hourglass export)</source>
        <translation>Hourglass-Export (hourglass export)</translation>
    </message>
    <message>
        <source>crontab (crontab -l, /etc/crontab, /etc/cron.d)</source>
        <translation>crontab (crontab -l, /etc/crontab, /etc/cron.d)</translation>
    </message>
    <message>
        <source>Windows Task Scheduler task (schtasks /query /xml)</source>
        <translation>Aufgabe der Windows-Aufgabenplanung (schtasks /query /xml)</translation>
    </message>
    <message>
        <source>the file to import</source>
        <translation>die zu importierende Datei</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen…</translation>
    </message>
    <message>
        <source>The project the chains go to; it is made if it does not exist</source>
        <translation>Das Projekt, in das die Ketten kommen; es wird angelegt, wenn es nicht existiert</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Wo</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Einzelheiten</translation>
    </message>
    <message>
        <source>What the import would do</source>
        <translation>Was der Import tun würde</translation>
    </message>
    <message>
        <source>&amp;From:</source>
        <translation>&amp;Aus:</translation>
    </message>
    <message>
        <source>Fi&amp;le:</source>
        <translation>&amp;Datei:</translation>
    </message>
    <message>
        <source>Into &amp;project:</source>
        <translation>In &amp;Projekt:</translation>
    </message>
    <message>
        <source>&amp;Import</source>
        <translation>&amp;Importieren</translation>
    </message>
    <message>
        <source>Hourglass export (*.json)</source>
        <translation>Hourglass-Export (*.json)</translation>
    </message>
    <message>
        <source>crontab (*)</source>
        <translation>crontab (*)</translation>
    </message>
    <message>
        <source>Task Scheduler XML (*.xml)</source>
        <translation>XML der Aufgabenplanung (*.xml)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Alle Dateien (*)</translation>
    </message>
    <message>
        <source>chain %1</source>
        <translation>Kette %1</translation>
    </message>
    <message>
        <source>left out</source>
        <translation>ausgelassen</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>Choose a file: nothing is written before Import.</source>
        <translation>Eine Datei wählen: vor „Importieren“ wird nichts geschrieben.</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Would import %1 project(s) with %2 chain(s), %3 task(s) and %4 schedule(s).</source>
        <translation>Würde %1 Projekt(e) mit %2 Kette(n), %3 Aufgabe(n) und %4 Zeitplan/Zeitplänen importieren.</translation>
    </message>
    <message>
        <source>Cannot be imported: %1</source>
        <translation>Nicht importierbar: %1</translation>
    </message>
    <message>
        <source>Would import %1 chain(s) into project %2; everything comes along.</source>
        <translation>Würde %1 Kette(n) in das Projekt %2 importieren; alles kommt mit.</translation>
    </message>
    <message>
        <source>Would import %1 chain(s) into project %2; %3 item(s) are left out (marked above).</source>
        <translation>Würde %1 Kette(n) in das Projekt %2 importieren; %3 Punkt(e) werden ausgelassen (oben markiert).</translation>
    </message>
    <message>
        <source>Nothing was imported: %1</source>
        <translation>Nichts wurde importiert: %1</translation>
    </message>
    <message>
        <source>Cannot read %1: not a regular file</source>
        <translation>%1 kann nicht gelesen werden: keine reguläre Datei</translation>
    </message>
    <message>
        <source>Cannot read %1: larger than %2 MiB</source>
        <translation>%1 kann nicht gelesen werden: größer als %2 MiB</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen…</translation>
    </message>
    <message>
        <source>Importing %1 chain(s)…</source>
        <translation>%1 Kette(n) werden importiert…</translation>
    </message>
    <message>
        <source>systemd timer or path unit (.timer, .path, with its .service beside it)</source>
        <translation>systemd-Timer oder -Pfad-Unit (.timer, .path, mit dem .service daneben)</translation>
    </message>
    <message>
        <source>systemd timer or path unit (*.timer *.path)</source>
        <translation>systemd-Timer oder -Pfad-Unit (*.timer *.path)</translation>
    </message>
</context>
<context>
    <name>hg::IntegrityCheck</name>
    <message>
        <source>cannot check %1: %2</source>
        <translation>%1 kann nicht geprüft werden: %2</translation>
    </message>
    <message>
        <source>%1 (and more: at least %2 problems)</source>
        <translation>%1 (und weitere: mindestens %2 Fehler)</translation>
    </message>
    <message>
        <source>%1 (%2 problems in all)</source>
        <translation>%1 (insgesamt %2 Fehler)</translation>
    </message>
</context>
<context>
    <name>hg::JsonFieldReader</name>
    <message>
        <source>unknown field (expected none)</source>
        <translation>unbekanntes Feld (keines erwartet)</translation>
    </message>
    <message>
        <source>unknown field (expected %1)</source>
        <translation>unbekanntes Feld (erwartet: %1)</translation>
    </message>
    <message>
        <source>expected text</source>
        <translation>Text erwartet</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>fehlt</translation>
    </message>
    <message>
        <source>expected a whole number</source>
        <translation>ganze Zahl erwartet</translation>
    </message>
    <message>
        <source>expected a number</source>
        <translation>Zahl erwartet</translation>
    </message>
    <message>
        <source>expected true or false</source>
        <translation>true oder false erwartet</translation>
    </message>
    <message>
        <source>expected an object</source>
        <translation>Objekt erwartet</translation>
    </message>
    <message>
        <source>expected a list</source>
        <translation>Liste erwartet</translation>
    </message>
    <message>
        <source>expected a list of text</source>
        <translation>Liste von Texten erwartet</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an ISO 8601 time</source>
        <translation>„%1“ ist keine ISO-8601-Zeit</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not one of %2</source>
        <translation>„%1“ ist nicht eines von %2</translation>
    </message>
    <message>
        <source>%1 is out of range (at most %2)</source>
        <translation>%1 liegt außerhalb des Bereichs (höchstens %2)</translation>
    </message>
</context>
<context>
    <name>hg::KeepRunningPrompt</name>
    <message>
        <source>Keep Hourglass running?</source>
        <translation>Hourglass weiterlaufen lassen?</translation>
    </message>
    <message>
        <source>Your schedules run only while Hourglass runs. Keep it running in the background, or quit and stop every schedule?</source>
        <translation>Ihre Zeitpläne laufen nur, solange Hourglass läuft. Soll Hourglass im Hintergrund weiterlaufen, oder beenden und alle Zeitpläne anhalten?</translation>
    </message>
    <message>
        <source>There is no system tray here. To bring this window back, start Hourglass again: the running one comes forward.</source>
        <translation>Hier gibt es keinen Infobereich. Um dieses Fenster zurückzuholen, Hourglass erneut starten: Die laufende Instanz kommt dann in den Vordergrund.</translation>
    </message>
    <message>
        <source>Keep running in the &amp;background</source>
        <translation>Im &amp;Hintergrund weiterlaufen</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Remember my choice</source>
        <translation>Auswahl &amp;merken</translation>
    </message>
</context>
<context>
    <name>hg::Keychain</name>
    <message>
        <source>the keychain did not answer within %1 s</source>
        <translation>der Schlüsselbund hat nicht innerhalb von %1 s geantwortet</translation>
    </message>
    <message>
        <source>cannot read &apos;%1&apos; from the keychain</source>
        <translation>&apos;%1&apos; kann nicht aus dem Schlüsselbund gelesen werden</translation>
    </message>
    <message>
        <source>cannot keep &apos;%1&apos; in the keychain</source>
        <translation>&apos;%1&apos; kann nicht im Schlüsselbund abgelegt werden</translation>
    </message>
    <message>
        <source>cannot remove &apos;%1&apos; from the keychain</source>
        <translation>&apos;%1&apos; kann nicht aus dem Schlüsselbund entfernt werden</translation>
    </message>
</context>
<context>
    <name>hg::LogRepository</name>
    <message>
        <source>read log</source>
        <translation>Lesen des Protokolls</translation>
    </message>
    <message>
        <source>write log lines</source>
        <translation>Protokollzeilen schreiben</translation>
    </message>
    <message>
        <source>writing %1 log lines stored %2</source>
        <translation>beim Schreiben von %1 Protokollzeilen wurden %2 gespeichert</translation>
    </message>
</context>
<context>
    <name>hg::LogView</name>
    <message>
        <source>Search the log (Enter: next, Shift+Enter: previous)</source>
        <translation>Protokoll durchsuchen (Eingabetaste: nächster Treffer, Umschalt+Eingabetaste: vorheriger)</translation>
    </message>
    <message>
        <source>Search the log</source>
        <translation>Protokoll durchsuchen</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <source>Keep the newest line in view</source>
        <translation>Die neueste Zeile im Blick behalten</translation>
    </message>
    <message>
        <source>Save log</source>
        <translation>Protokoll speichern</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Copy the selected lines, or the whole log when none is selected</source>
        <translation>Die ausgewählten Zeilen kopieren, oder das ganze Protokoll, wenn keine ausgewählt ist</translation>
    </message>
    <message>
        <source>Save the log to a text file</source>
        <translation>Das Protokoll in eine Textdatei speichern</translation>
    </message>
    <message>
        <source>The output of the selected run, newest at the bottom</source>
        <translation>Die Ausgabe des ausgewählten Laufs, das Neueste unten</translation>
    </message>
    <message>
        <source>Fo&amp;llow</source>
        <translation>&amp;Folgen</translation>
    </message>
    <message>
        <source>Cop&amp;y</source>
        <translation>Ko&amp;pieren</translation>
    </message>
    <message>
        <source>Sa&amp;ve…</source>
        <translation>Spei&amp;chern…</translation>
    </message>
    <message>
        <source>Only the last %L1 lines are shown here; hourglass logs %2 prints them all.</source>
        <translation>Hier stehen nur die letzten %L1 Zeilen; hourglass logs %2 gibt alle aus.</translation>
    </message>
</context>
<context>
    <name>hg::MainWindow</name>
    <message>
        <source>Projects and chains</source>
        <translation>Projekte und Ketten</translation>
    </message>
    <message>
        <source>Select a chain to edit it; F2 renames, Delete deletes</source>
        <translation>Eine Kette auswählen, um sie zu bearbeiten; F2 benennt um, Entf löscht</translation>
    </message>
    <message>
        <source>Views</source>
        <translation>Ansichten</translation>
    </message>
    <message>
        <source>&amp;Chain</source>
        <translation>&amp;Kette</translation>
    </message>
    <message>
        <source>&amp;Runs</source>
        <translation>&amp;Läufe</translation>
    </message>
    <message>
        <source>&amp;Upcoming</source>
        <translation>&amp;Anstehend</translation>
    </message>
    <message>
        <source>Engine: starting</source>
        <translation>Engine: startet</translation>
    </message>
    <message>
        <source>Engine: not running here</source>
        <translation>Engine: läuft nicht hier</translation>
    </message>
    <message>
        <source>Store: %1</source>
        <translation>Datenspeicher: %1</translation>
    </message>
    <message>
        <source>&amp;Run now</source>
        <translation>&amp;Jetzt ausführen</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>&amp;Pause all schedules</source>
        <translation>Alle Zeitpläne &amp;pausieren</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>&amp;Importieren…</translation>
    </message>
    <message>
        <source>Add a task to the chain (Ctrl+T)</source>
        <translation>Der Kette eine Aufgabe hinzufügen (Strg+T)</translation>
    </message>
    <message>
        <source>Run the selected chain now (Ctrl+R)</source>
        <translation>Die ausgewählte Kette jetzt ausführen (Strg+R)</translation>
    </message>
    <message>
        <source>Stop the selected run (Ctrl+.)</source>
        <translation>Den ausgewählten Lauf stoppen (Strg+.)</translation>
    </message>
    <message>
        <source>New chain in the selected project (Ctrl+N)</source>
        <translation>Neue Kette im ausgewählten Projekt (Strg+N)</translation>
    </message>
    <message>
        <source>Pause every schedule; manual runs still run (Ctrl+Shift+P)</source>
        <translation>Alle Zeitpläne pausieren; manuelle Läufe werden weiterhin ausgeführt (Strg+Umschalt+P)</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Hauptwerkzeugleiste</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>&amp;About Hourglass</source>
        <translation>&amp;Über Hourglass</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n chain(s) with their tasks and schedules</source>
        <translation>
            <numerusform>%n Kette mit ihren Aufgaben und Zeitplänen importiert</numerusform>
            <numerusform>%n Ketten mit ihren Aufgaben und Zeitplänen importiert</numerusform>
        </translation>
    </message>
    <message>
        <source>Run now</source>
        <translation>Jetzt ausführen</translation>
    </message>
    <message>
        <source>Run %1 queued</source>
        <translation>Lauf %1 eingereiht</translation>
    </message>
    <message>
        <source>All schedules paused; manual runs still run</source>
        <translation>Alle Zeitpläne pausiert; manuelle Läufe werden weiterhin ausgeführt</translation>
    </message>
    <message>
        <source>Schedules resumed</source>
        <translation>Zeitpläne fortgesetzt</translation>
    </message>
    <message>
        <source>Hourglass keeps running</source>
        <translation>Hourglass läuft weiter</translation>
    </message>
    <message>
        <source>Schedules go on. Start Hourglass again to bring the window back.</source>
        <translation>Die Zeitpläne laufen weiter. Hourglass erneut starten, um das Fenster zurückzuholen.</translation>
    </message>
    <message>
        <source>Engine: stopped</source>
        <translation>Engine: gestoppt</translation>
    </message>
    <message>
        <source>Engine: running</source>
        <translation>Engine: läuft</translation>
    </message>
    <message numerus="yes">
        <source>%n active</source>
        <translation>
            <numerusform>%n aktiv</numerusform>
            <numerusform>%n aktiv</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n queued</source>
        <translation>
            <numerusform>%n eingereiht</numerusform>
            <numerusform>%n eingereiht</numerusform>
        </translation>
    </message>
    <message>
        <source>schedules paused</source>
        <translation>Zeitpläne pausiert</translation>
    </message>
    <message>
        <source>next fire %1</source>
        <translation>nächste Auslösung %1</translation>
    </message>
    <message>
        <source>&amp;Overview</source>
        <translation>Über&amp;sicht</translation>
    </message>
    <message>
        <source>The selected chain, its runs, the coming fires, an overview</source>
        <translation>Die ausgewählte Kette, ihre Läufe, die kommenden Auslösungen, eine Übersicht</translation>
    </message>
    <message>
        <source>The selected chain: its tasks, dependencies and schedules</source>
        <translation>Die ausgewählte Kette: ihre Aufgaben, Abhängigkeiten und Zeitpläne</translation>
    </message>
    <message>
        <source>The runs, their attempts and logs</source>
        <translation>Die Läufe, ihre Versuche und Protokolle</translation>
    </message>
    <message>
        <source>Every fire time of the coming week</source>
        <translation>Jede Auslösezeit der kommenden Woche</translation>
    </message>
    <message>
        <source>Running now, recent failures, next fires, every chain&apos;s last runs</source>
        <translation>Was gerade läuft, letzte Fehlschläge, nächste Auslösungen, die letzten Läufe jeder Kette</translation>
    </message>
    <message>
        <source>Another engine took over this engine&apos;s runs (%1); its tasks here were stopped.</source>
        <translation>Eine andere Engine hat die Läufe dieser Engine übernommen (%1); ihre Aufgaben hier wurden beendet.</translation>
    </message>
    <message>
        <source>Engine: off, the store is read-only</source>
        <translation>Engine: aus, der Datenspeicher ist schreibgeschützt</translation>
    </message>
    <message>
        <source>Engine: the store cannot be used since %1; nothing new starts, retrying</source>
        <translation>Engine: der Speicher ist seit %1 nicht nutzbar; nichts Neues startet, neuer Versuch läuft</translation>
    </message>
    <message>
        <source>Import a Hourglass export, a crontab, a Windows task or a systemd timer</source>
        <translation>Einen Hourglass-Export, eine crontab, eine Windows-Aufgabe oder einen systemd-Timer importieren</translation>
    </message>
    <message>
        <source>&amp;Backfill…</source>
        <translation>&amp;Nachholen…</translation>
    </message>
    <message>
        <source>Queue runs of the selected chain for the fire times of a past range</source>
        <translation>Läufe der ausgewählten Kette für die Auslösezeiten eines vergangenen Zeitraums einreihen</translation>
    </message>
    <message numerus="yes">
        <source>Queued %n backfill run(s) of %1</source>
        <translation>
            <numerusform>%n Nachhol-Lauf von %1 eingereiht</numerusform>
            <numerusform>%n Nachhol-Läufe von %1 eingereiht</numerusform>
        </translation>
    </message>
    <message>
        <source>No missed runs wait for a decision.</source>
        <translation>Keine versäumten Läufe warten auf eine Entscheidung.</translation>
    </message>
    <message>
        <source>tasks for other engines: %1</source>
        <translation>Aufgaben für andere Engines: %1</translation>
    </message>
    <message>
        <source>&amp;Go to</source>
        <translation>&amp;Gehe zu</translation>
    </message>
    <message>
        <source>Project &amp;tree</source>
        <translation>Projekt&amp;baum</translation>
    </message>
    <message>
        <source>Chain &amp;canvas</source>
        <translation>&amp;Zeichenfläche der Kette</translation>
    </message>
    <message>
        <source>&amp;Log</source>
        <translation>&amp;Protokoll</translation>
    </message>
    <message>
        <source>&amp;Find a chain</source>
        <translation>Kette &amp;suchen</translation>
    </message>
    <message>
        <source>Cha&amp;in</source>
        <translation>Ke&amp;tte</translation>
    </message>
    <message>
        <source>&amp;Getting started</source>
        <translation>&amp;Erste Schritte</translation>
    </message>
    <message>
        <source>&amp;Manual</source>
        <translation>&amp;Handbuch</translation>
    </message>
    <message>
        <source>No&amp;tifications…</source>
        <translation>Benachrichti&amp;gungen…</translation>
    </message>
    <message>
        <source>E-mail and webhook channels, what goes to them, and what was sent</source>
        <translation>E-Mail- und Webhook-Kanäle, was an sie geht und was gesendet wurde</translation>
    </message>
</context>
<context>
    <name>hg::Migrator</name>
    <message>
        <source>cannot read the schema version of %1: %2</source>
        <translation>die Schemaversion von %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>migration failed: %1
%2</source>
        <translation>Migration fehlgeschlagen: %1
%2</translation>
    </message>
    <message>
        <source>missing migration %1</source>
        <translation>Migration %1 fehlt</translation>
    </message>
    <message>
        <source>cannot record schema version: %1</source>
        <translation>die Schemaversion kann nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>migration %1 failed in memory: %2</source>
        <translation>Migration %1 schlug im Arbeitsspeicher fehl: %2</translation>
    </message>
    <message>
        <source>migration failed: %1</source>
        <translation>Migration fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>migration failed: a row of %1 names a missing row of %2</source>
        <translation>Migration fehlgeschlagen: eine Zeile von %1 verweist auf eine fehlende Zeile von %2</translation>
    </message>
</context>
<context>
    <name>hg::MissedFileRuns</name>
    <message>
        <source>cannot write the list of the missed files in %1</source>
        <translation>die Liste der verpassten Dateien kann nicht in %1 geschrieben werden</translation>
    </message>
    <message>
        <source>queue a missed run of a file trigger</source>
        <translation>einen verpassten Lauf eines Dateiauslösers einreihen</translation>
    </message>
</context>
<context>
    <name>hg::MissedRunsDialog</name>
    <message>
        <source>Missed runs of %1</source>
        <translation>Versäumte Läufe von %1</translation>
    </message>
    <message>
        <source>%1 did not run at %2 %3.</source>
        <translation>%1 lief nicht um %2 %3.</translation>
    </message>
    <message numerus="yes">
        <source>%1 did not run %n time(s), from %2 to %3, %4.</source>
        <translation>
            <numerusform>%1 lief %n Mal nicht, von %2 bis %3, %4.</numerusform>
            <numerusform>%1 lief %n Mal nicht, von %2 bis %3, %4.</numerusform>
        </translation>
    </message>
    <message>
        <source>Run &amp;all of them, oldest first</source>
        <translation>&amp;Alle ausführen, die älteste zuerst</translation>
    </message>
    <message>
        <source>Run the &amp;latest only</source>
        <translation>Nur die &amp;letzte ausführen</translation>
    </message>
    <message>
        <source>&amp;Dismiss them</source>
        <translation>Sie &amp;verwerfen</translation>
    </message>
    <message>
        <source>one after another</source>
        <translation>nacheinander</translation>
    </message>
    <message>
        <source>Runs at once</source>
        <translation>Läufe gleichzeitig</translation>
    </message>
    <message>
        <source>At &amp;once:</source>
        <translation>&amp;Gleichzeitig:</translation>
    </message>
    <message>
        <source>&amp;Keep this choice for the next missed runs (the schedules&apos; misfire policy becomes all, once or skip)</source>
        <translation>Diese Wahl für die nächsten versäumten Läufe &amp;beibehalten (die Regel für Verpasstes der Zeitpläne wird all, once oder skip)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <source>Every missed fire time becomes a run, one after another.</source>
        <translation>Jede versäumte Auslösezeit wird ein Lauf, einer nach dem anderen.</translation>
    </message>
    <message>
        <source>Every missed fire time becomes a run, %1 at a time.</source>
        <translation>Jede versäumte Auslösezeit wird ein Lauf, %1 gleichzeitig.</translation>
    </message>
    <message>
        <source>Nothing runs; the missed fire times stay in the chain&apos;s history as dismissed.</source>
        <translation>Nichts läuft; die versäumten Auslösezeiten bleiben als verworfen im Verlauf der Kette.</translation>
    </message>
    <message>
        <source>&amp;Dismiss</source>
        <translation>&amp;Verwerfen</translation>
    </message>
    <message>
        <source>From now on, missed runs of this chain are handled this way without asking (misfire policy %1).</source>
        <translation>Von nun an werden versäumte Läufe dieser Kette ohne Nachfrage so behandelt (Regel für Verpasstes %1).</translation>
    </message>
    <message>
        <source>Nothing was done: %1</source>
        <translation>Nichts wurde getan: %1</translation>
    </message>
    <message>
        <source>One run, for the latest missed fire time (of a file trigger, one run for all its missed files); the others are set aside.</source>
        <translation>Ein Lauf für die letzte verpasste Auslösezeit (bei einem Dateiauslöser ein Lauf für alle seine verpassten Dateien); die übrigen werden beiseitegelegt.</translation>
    </message>
</context>
<context>
    <name>hg::MissedRunsInbox</name>
    <message>
        <source>no missed runs of %1 wait for a decision</source>
        <translation>keine versäumten Läufe von %1 warten auf eine Entscheidung</translation>
    </message>
    <message>
        <source>%1 missed runs are more than %2 at once; run the latest only</source>
        <translation>%1 versäumte Läufe sind mehr als %2 auf einmal; nur den letzten ausführen</translation>
    </message>
    <message>
        <source>the missed runs of %1 were decided meanwhile, by another command or window; nothing was done</source>
        <translation>über die verpassten Läufe von %1 wurde inzwischen entschieden, von einem anderen Befehl oder Fenster; nichts wurde getan</translation>
    </message>
</context>
<context>
    <name>hg::NotificationBell</name>
    <message>
        <source>Notifications (%1)</source>
        <translation>Benachrichtigungen (%1)</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>Benachrichtigungen</translation>
    </message>
    <message>
        <source>Notifications: none yet</source>
        <translation>Benachrichtigungen: noch keine</translation>
    </message>
    <message numerus="yes">
        <source>Notifications: %n not seen yet</source>
        <translation>
            <numerusform>Benachrichtigungen: %n ungelesen</numerusform>
            <numerusform>Benachrichtigungen: %n ungelesen</numerusform>
        </translation>
    </message>
    <message>
        <source>No notifications yet</source>
        <translation>Noch keine Benachrichtigungen</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
</context>
<context>
    <name>hg::NotificationMessage</name>
    <message>
        <source>%1 failed (run %2)</source>
        <translation>%1 fehlgeschlagen (Lauf %2)</translation>
    </message>
    <message>
        <source>%1 recovered (run %2)</source>
        <translation>%1 wieder erfolgreich (Lauf %2)</translation>
    </message>
    <message>
        <source>%1 succeeded (run %2)</source>
        <translation>%1 erfolgreich (Lauf %2)</translation>
    </message>
    <message>
        <source>%1 printed output (run %2)</source>
        <translation>%1 hat Ausgaben geschrieben (Lauf %2)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>chain %1 (removed)</source>
        <translation>Kette %1 (entfernt)</translation>
    </message>
    <message>
        <source>read an alert</source>
        <translation>Warnung lesen</translation>
    </message>
    <message>
        <source>alert (%1)</source>
        <translation>Warnung (%1)</translation>
    </message>
    <message>
        <source>Why: %1</source>
        <translation>Grund: %1</translation>
    </message>
    <message>
        <source>read a missed fire</source>
        <translation>verpassten Termin lesen</translation>
    </message>
    <message numerus="yes">
        <source>%n fire time(s) missed</source>
        <translation>
            <numerusform>%n Termin verpasst</numerusform>
            <numerusform>%n Termine verpasst</numerusform>
        </translation>
    </message>
    <message>
        <source>They wait in the missed-runs inbox: `hourglass missed`.</source>
        <translation>Sie warten im Eingang der verpassten Läufe: `hourglass missed`.</translation>
    </message>
    <message>
        <source>Scheduled: %1</source>
        <translation>Geplant:   %1</translation>
    </message>
    <message>
        <source>Started:   %1</source>
        <translation>Gestartet: %1</translation>
    </message>
    <message>
        <source>Ended:     %1</source>
        <translation>Beendet:   %1</translation>
    </message>
    <message>
        <source>Engine:    %1 on %2</source>
        <translation>Engine:    %1 auf %2</translation>
    </message>
    <message numerus="yes">
        <source>Last %n line(s) of output:</source>
        <translation>
            <numerusform>Letzte Zeile der Ausgabe:</numerusform>
            <numerusform>Letzte %n Zeilen der Ausgabe:</numerusform>
        </translation>
    </message>
    <message>
        <source>test of channel &apos;%1&apos;</source>
        <translation>Test des Kanals „%1“</translation>
    </message>
    <message>
        <source>This is a test message from Hourglass %1 on %2, a test of channel &apos;%3&apos;.</source>
        <translation>Dies ist eine Testnachricht von Hourglass %1 auf %2, ein Test des Kanals „%3“.</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) arrived unwatched</source>
        <translation>
            <numerusform>%n Datei kam unbeobachtet an</numerusform>
            <numerusform>%n Dateien kamen unbeobachtet an</numerusform>
        </translation>
    </message>
    <message>
        <source>Files: %1</source>
        <translation>Dateien: %1</translation>
    </message>
</context>
<context>
    <name>hg::NotificationsDialog</name>
    <message>
        <source>Notifications</source>
        <translation>Benachrichtigungen</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Wohin</translation>
    </message>
    <message>
        <source>At most</source>
        <translation>Höchstens</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>Channels</source>
        <translation>Kanäle</translation>
    </message>
    <message>
        <source>&amp;Add…</source>
        <translation>&amp;Hinzufügen…</translation>
    </message>
    <message>
        <source>&amp;Change…</source>
        <translation>Ä&amp;ndern…</translation>
    </message>
    <message>
        <source>&amp;Test</source>
        <translation>&amp;Testen</translation>
    </message>
    <message>
        <source>Send a test message and show the server&apos;s answer</source>
        <translation>Eine Testnachricht senden und die Antwort des Servers zeigen</translation>
    </message>
    <message>
        <source>&amp;Remove…</source>
        <translation>&amp;Entfernen…</translation>
    </message>
    <message>
        <source>C&amp;hannels</source>
        <translation>&amp;Kanäle</translation>
    </message>
    <message>
        <source>For</source>
        <translation>Für</translation>
    </message>
    <message>
        <source>Channel</source>
        <translation>Kanal</translation>
    </message>
    <message>
        <source>On</source>
        <translation>Bei</translation>
    </message>
    <message>
        <source>To</source>
        <translation>An</translation>
    </message>
    <message>
        <source>Routes</source>
        <translation>Routen</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>Ent&amp;fernen</translation>
    </message>
    <message>
        <source>R&amp;outes</source>
        <translation>&amp;Routen</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Last answer</source>
        <translation>Letzte Antwort</translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation>Zustellungen</translation>
    </message>
    <message>
        <source>Show deliveries</source>
        <translation>Zustellungen zeigen</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>&amp;Show:</source>
        <translation>Zei&amp;gen:</translation>
    </message>
    <message>
        <source>&amp;Deliveries</source>
        <translation>&amp;Zustellungen</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Could not read the notifications: %1</source>
        <translation>Die Benachrichtigungen konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>(URL kept as a secret)</source>
        <translation>(URL als Geheimnis verwahrt)</translation>
    </message>
    <message>
        <source>%1 in %2 s</source>
        <translation>%1 in %2 s</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>keine Grenze</translation>
    </message>
    <message>
        <source>%1 a day</source>
        <translation>%1 am Tag</translation>
    </message>
    <message>
        <source>no cap</source>
        <translation>keine Tagesgrenze</translation>
    </message>
    <message>
        <source>default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>every chain</source>
        <translation>jede Kette</translation>
    </message>
    <message>
        <source>(default e-mail)</source>
        <translation>(Standard-E-Mail)</translation>
    </message>
    <message numerus="yes">
        <source>&amp;Deliveries (%n failed)</source>
        <translation>
            <numerusform>&amp;Zustellungen (%n fehlgeschlagen)</numerusform>
            <numerusform>&amp;Zustellungen (%n fehlgeschlagen)</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing was added: %1</source>
        <translation>Nichts wurde hinzugefügt: %1</translation>
    </message>
    <message>
        <source>Channel &apos;%1&apos; added.</source>
        <translation>Kanal „%1“ hinzugefügt.</translation>
    </message>
    <message>
        <source>Channel &apos;%1&apos; added; its secrets are kept in %2.</source>
        <translation>Kanal „%1“ hinzugefügt; seine Geheimnisse liegen in %2.</translation>
    </message>
    <message>
        <source>Nothing was changed: %1</source>
        <translation>Nichts wurde geändert: %1</translation>
    </message>
    <message>
        <source>Channel &apos;%1&apos; changed.</source>
        <translation>Kanal „%1“ geändert.</translation>
    </message>
    <message>
        <source>Sending a test message to &apos;%1&apos;…</source>
        <translation>Testnachricht an „%1“ wird gesendet…</translation>
    </message>
    <message>
        <source>Sent to &apos;%1&apos;: %2</source>
        <translation>An „%1“ gesendet: %2</translation>
    </message>
    <message>
        <source>Not sent to &apos;%1&apos;: %2</source>
        <translation>Nicht an „%1“ gesendet: %2</translation>
    </message>
    <message>
        <source>Remove channel</source>
        <translation>Kanal entfernen</translation>
    </message>
    <message numerus="yes">
        <source>Remove channel &apos;%1&apos;? Its routes and the %n message(s) still waiting for it go with it.</source>
        <translation>
            <numerusform>Kanal „%1“ entfernen? Seine Routen und die %n noch wartende Nachricht gehen mit.</numerusform>
            <numerusform>Kanal „%1“ entfernen? Seine Routen und die %n noch wartenden Nachrichten gehen mit.</numerusform>
        </translation>
    </message>
    <message>
        <source>Remove channel &apos;%1&apos; and its routes?</source>
        <translation>Kanal „%1“ und seine Routen entfernen?</translation>
    </message>
    <message>
        <source>Not removed: %1</source>
        <translation>Nicht entfernt: %1</translation>
    </message>
    <message>
        <source>Channel &apos;%1&apos; removed, but not its secrets: %2</source>
        <translation>Kanal „%1“ entfernt, aber nicht seine Geheimnisse: %2</translation>
    </message>
    <message>
        <source>Channel &apos;%1&apos; removed.</source>
        <translation>Kanal „%1“ entfernt.</translation>
    </message>
    <message>
        <source>%1 (every chain)</source>
        <translation>%1 (jede Kette)</translation>
    </message>
    <message>
        <source>Could not read the chains: %1</source>
        <translation>Die Ketten konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>No route was added: %1</source>
        <translation>Keine Route wurde hinzugefügt: %1</translation>
    </message>
    <message>
        <source>Route added: %1 to %2.</source>
        <translation>Route hinzugefügt: %1 an %2.</translation>
    </message>
    <message>
        <source>Next attempt: %1</source>
        <translation>Nächster Versuch: %1</translation>
    </message>
    <message>
        <source>That route is there already.</source>
        <translation>Diese Route gibt es bereits.</translation>
    </message>
    <message>
        <source>Route added: %1 to the default e-mail channel; there is none yet, and the route waits for one (Add… on Channels, its default box ticked).</source>
        <translation>Route hinzugefügt: %1 an den Standard-E-Mail-Kanal; es gibt noch keinen, und die Route wartet auf einen (Hinzufügen… unter Kanäle, mit gesetztem Standard-Haken).</translation>
    </message>
    <message>
        <source>%1 to %2 on %3</source>
        <translation>%1 an %2 bei %3</translation>
    </message>
    <message>
        <source>Route removed: %1.</source>
        <translation>Route entfernt: %1.</translation>
    </message>
    <message>
        <source>the tray of any desktop of this store</source>
        <translation>der Infobereich jedes Desktops dieses Datenspeichers</translation>
    </message>
    <message>
        <source>the tray of %1</source>
        <translation>der Infobereich von %1</translation>
    </message>
    <message>
        <source>A test message for &apos;%1&apos; is queued: the tray of %2 shows it in a moment (see Deliveries).</source>
        <translation>Eine Testnachricht für „%1“ ist eingereiht: der Infobereich von %2 zeigt sie gleich (siehe Zustellungen).</translation>
    </message>
    <message>
        <source>a desktop of this store</source>
        <translation>ein Desktop dieses Datenspeichers</translation>
    </message>
    <message>
        <source>Not queued for &apos;%1&apos;: %2</source>
        <translation>Nicht eingereiht für „%1“: %2</translation>
    </message>
</context>
<context>
    <name>hg::NotifyChannelRepository</name>
    <message>
        <source>--url: &apos;%1&apos; is not smtp://[USER@]HOST[:PORT]</source>
        <translation>--url: „%1“ hat nicht die Form smtp://[BENUTZER@]HOST[:PORT]</translation>
    </message>
    <message>
        <source>--url: a password in the URL would be kept in the store in plain text; give it with --password-stdin</source>
        <translation>--url: ein Passwort in der URL stünde im Klartext im Datenspeicher; geben Sie es mit --password-stdin an</translation>
    </message>
    <message>
        <source>--tls none: &apos;%1&apos; is not this machine, and the messages (and a password) would cross the network in clear; use starttls or implicit</source>
        <translation>--tls none: „%1“ ist nicht dieser Rechner, und die Nachrichten (und ein Passwort) gingen unverschlüsselt über das Netz; verwenden Sie starttls oder implicit</translation>
    </message>
    <message>
        <source>--from: &apos;%1&apos; is not an e-mail address</source>
        <translation>--from: „%1“ ist keine E-Mail-Adresse</translation>
    </message>
    <message>
        <source>--to: an e-mail channel needs a recipient</source>
        <translation>--to: ein E-Mail-Kanal braucht einen Empfänger</translation>
    </message>
    <message>
        <source>--to: &apos;%1&apos; is not an e-mail address</source>
        <translation>--to: „%1“ ist keine E-Mail-Adresse</translation>
    </message>
    <message>
        <source>add channel &apos;%1&apos;</source>
        <translation>Kanal „%1“ hinzufügen</translation>
    </message>
    <message>
        <source>channel &apos;%1&apos; already exists</source>
        <translation>Kanal „%1“ gibt es schon</translation>
    </message>
    <message>
        <source>read channel</source>
        <translation>Kanal lesen</translation>
    </message>
    <message>
        <source>unknown channel &apos;%1&apos; (see `hourglass channel list`)</source>
        <translation>unbekannter Kanal „%1“ (siehe `hourglass channel list`)</translation>
    </message>
    <message>
        <source>unknown channel id %1</source>
        <translation>unbekannte Kanal-ID %1</translation>
    </message>
    <message>
        <source>list channels</source>
        <translation>Kanäle auflisten</translation>
    </message>
    <message>
        <source>remove channel &apos;%1&apos;</source>
        <translation>Kanal „%1“ entfernen</translation>
    </message>
    <message>
        <source>unknown channel &apos;%1&apos;</source>
        <translation>unbekannter Kanal „%1“</translation>
    </message>
    <message>
        <source>the URL read</source>
        <translation>die gelesene URL</translation>
    </message>
    <message>
        <source>%1: the URL is %L2 characters long; 8,192 at most</source>
        <translation>%1: die URL ist %L2 Zeichen lang; höchstens 8.192</translation>
    </message>
    <message>
        <source>%1: %2 is not an http:// or https:// URL</source>
        <translation>%1: %2 ist keine http://- oder https://-URL</translation>
    </message>
    <message>
        <source>--url: credentials in the URL would be kept in the store in plain text; give the URL with --secret-url-stdin</source>
        <translation>--url: Zugangsdaten in der URL stünden im Klartext im Datenspeicher; geben Sie die URL mit --secret-url-stdin an</translation>
    </message>
    <message>
        <source>--url: its &apos;%1&apos; would be kept in the store in plain text; give the URL with --secret-url-stdin</source>
        <translation>--url: ihr „%1“ stünde im Klartext im Datenspeicher; geben Sie die URL mit --secret-url-stdin an</translation>
    </message>
    <message>
        <source>--flood: %1 is not a number of messages from 0 (off) to 100000</source>
        <translation>--flood: %1 ist keine Anzahl von Nachrichten von 0 (aus) bis 100000</translation>
    </message>
    <message>
        <source>--flood-window: %1 is not a number of seconds from 1 to 86400</source>
        <translation>--flood-window: %1 ist keine Anzahl von Sekunden von 1 bis 86400</translation>
    </message>
    <message>
        <source>--daily-cap: %1 is not a number of messages from 0 (no cap) to 1000000</source>
        <translation>--daily-cap: %1 ist keine Anzahl von Nachrichten von 0 (keine Grenze) bis 1000000</translation>
    </message>
    <message>
        <source>change channel &apos;%1&apos;</source>
        <translation>Ändern des Kanals „%1“</translation>
    </message>
    <message>
        <source>--to: %1 recipients; %2 at most (a list address reaches more)</source>
        <translation>--to: %1 Empfänger; höchstens %2 (eine Listenadresse erreicht mehr)</translation>
    </message>
    <message>
        <source>keep the secrets of channel %1</source>
        <translation>Verwahren der Geheimnisse von Kanal %1</translation>
    </message>
    <message>
        <source>--host: &apos;%1&apos; is not a host name</source>
        <translation>--host: „%1“ ist kein Hostname</translation>
    </message>
    <message>
        <source>--default: the default channel is an e-mail one</source>
        <translation>--default: der Standardkanal ist ein E-Mail-Kanal</translation>
    </message>
    <message>
        <source>--url: a %1 webhook&apos;s URL is itself a secret (its token is in the path); give it with --secret-url-stdin</source>
        <translation>--url: die URL eines %1-Webhooks ist selbst ein Geheimnis (ihr Token steht im Pfad); mit --secret-url-stdin angeben</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a kind of channel (%2)</source>
        <translation>„%1“ ist keine Kanalart (%2)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an encryption (%2)</source>
        <translation>„%1“ ist keine Verschlüsselung (%2)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a webhook body (%2)</source>
        <translation>„%1“ ist kein Webhook-Inhalt (%2)</translation>
    </message>
    <message>
        <source>--ca: &apos;%1&apos; is not a readable PEM file of certificates</source>
        <translation>--ca: „%1“ ist keine lesbare PEM-Datei mit Zertifikaten</translation>
    </message>
</context>
<context>
    <name>hg::NotifyRouteRepository</name>
    <message>
        <source>--on: &apos;%1&apos; is not an event (%2)</source>
        <translation>--on: „%1“ ist kein Ereignis (%2)</translation>
    </message>
    <message>
        <source>--on: name one event at least (%1)</source>
        <translation>--on: nennen Sie mindestens ein Ereignis (%1)</translation>
    </message>
    <message>
        <source>--on: name one event at least</source>
        <translation>--on: nennen Sie mindestens ein Ereignis</translation>
    </message>
    <message>
        <source>add notification route</source>
        <translation>Benachrichtigungsweg hinzufügen</translation>
    </message>
    <message>
        <source>list notification routes</source>
        <translation>Benachrichtigungswege auflisten</translation>
    </message>
    <message>
        <source>remove notification route %1</source>
        <translation>Benachrichtigungsweg %1 entfernen</translation>
    </message>
    <message>
        <source>unknown notification route %1 (see `hourglass notify list`)</source>
        <translation>unbekannter Benachrichtigungsweg %1 (siehe `hourglass notify list`)</translation>
    </message>
    <message>
        <source>--on engine: an engine&apos;s events belong to no chain; give them to a global route (`notify add --global`)</source>
        <translation>--on engine: die Ereignisse einer Engine gehören zu keiner Kette; einer globalen Route geben (`notify add --global`)</translation>
    </message>
</context>
<context>
    <name>hg::OccurrencePresentation</name>
    <message>
        <source>ran</source>
        <translation>gelaufen</translation>
    </message>
    <message>
        <source>skipped (still running)</source>
        <translation>übersprungen (lief noch)</translation>
    </message>
    <message>
        <source>skipped (too late)</source>
        <translation>übersprungen (zu spät)</translation>
    </message>
    <message>
        <source>coalesced</source>
        <translation>zusammengefasst</translation>
    </message>
    <message>
        <source>missed</source>
        <translation>versäumt</translation>
    </message>
    <message>
        <source>excluded</source>
        <translation>ausgeschlossen</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <source>while the engine was not running</source>
        <translation>während die Engine nicht lief</translation>
    </message>
    <message>
        <source>while the computer slept</source>
        <translation>während der Rechner schlief</translation>
    </message>
    <message>
        <source>when the clock was set</source>
        <translation>als die Uhr gestellt wurde</translation>
    </message>
    <message>
        <source>while the store could not be reached</source>
        <translation>während der Speicher nicht erreichbar war</translation>
    </message>
    <message>
        <source>because the engine was late</source>
        <translation>weil die Engine zu spät war</translation>
    </message>
    <message numerus="yes">
        <source>%n fire times from %1 to %2</source>
        <translation>
            <numerusform>%n Auslösezeit von %1 bis %2</numerusform>
            <numerusform>%n Auslösezeiten von %1 bis %2</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: run %2, %3</source>
        <translation>%1: Lauf %2, %3</translation>
    </message>
    <message>
        <source>, started %1 late</source>
        <translation>, %1 verspätet gestartet</translation>
    </message>
    <message>
        <source>, took %1</source>
        <translation>, dauerte %1</translation>
    </message>
    <message>
        <source>%1: skipped, the previous run still ran</source>
        <translation>%1: übersprungen, der vorige Lauf lief noch</translation>
    </message>
    <message>
        <source>%1: skipped by the misfire policy %2</source>
        <translation>%1: von der Regel für Verpasstes übersprungen %2</translation>
    </message>
    <message>
        <source>%1: folded into run %2 (misfire policy once) %3</source>
        <translation>%1: in Lauf %2 zusammengefasst (Regel für Verpasstes once) %3</translation>
    </message>
    <message>
        <source>%1: missed %2</source>
        <translation>%1: versäumt %2</translation>
    </message>
    <message>
        <source>; waiting in the missed-runs inbox</source>
        <translation>; wartet im Eingang versäumter Läufe</translation>
    </message>
    <message>
        <source>; run from the inbox</source>
        <translation>; aus dem Eingang ausgeführt</translation>
    </message>
    <message>
        <source>; dismissed from the inbox</source>
        <translation>; aus dem Eingang verworfen</translation>
    </message>
    <message>
        <source>%1: excluded by the schedule&apos;s calendar</source>
        <translation>%1: vom Kalender des Zeitplans ausgeschlossen</translation>
    </message>
    <message>
        <source>%1: not run, schedules were paused</source>
        <translation>%1: nicht gelaufen, die Zeitpläne waren pausiert</translation>
    </message>
    <message>
        <source>Alert: %1</source>
        <translation>Alarm: %1</translation>
    </message>
    <message>
        <source>skipped (no network)</source>
        <translation>übersprungen (kein Netzwerk)</translation>
    </message>
    <message>
        <source>by the trigger&apos;s batch window</source>
        <translation>vom Sammelfenster des Auslösers</translation>
    </message>
    <message>
        <source>by the trigger&apos;s limit of runs a minute</source>
        <translation>von der Grenze des Auslösers für Läufe pro Minute</translation>
    </message>
    <message>
        <source>%1: not run, the computer had no network (the chain needs one)</source>
        <translation>%1: nicht ausgeführt, der Rechner hatte kein Netzwerk (die Kette braucht eines)</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 bis %2</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s), written %1</source>
        <translation>
            <numerusform>%n Datei, geschrieben %1</numerusform>
            <numerusform>%n Dateien, geschrieben %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) (%1), written %2</source>
        <translation>
            <numerusform>%n Datei (%1), geschrieben %2</numerusform>
            <numerusform>%n Dateien (%1), geschrieben %2</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: skipped by the misfire policy, arrived %2</source>
        <translation>%1: von der Misfire-Regel übersprungen, angekommen %2</translation>
    </message>
    <message>
        <source>%1: gathered into run %2 %3</source>
        <translation>%1: in Lauf %2 gesammelt %3</translation>
    </message>
    <message>
        <source>%1: arrived %2</source>
        <translation>%1: angekommen %2</translation>
    </message>
    <message>
        <source>while schedules or the trigger were paused</source>
        <translation>während Zeitpläne oder der Auslöser pausiert waren</translation>
    </message>
</context>
<context>
    <name>hg::OccurrenceRepository</name>
    <message>
        <source>record an occurrence</source>
        <translation>Ausführungszeit festhalten</translation>
    </message>
    <message>
        <source>read the occurrence ledger</source>
        <translation>Ausführungsbuch lesen</translation>
    </message>
    <message>
        <source>read the missed-runs inbox</source>
        <translation>Eingang versäumter Läufe lesen</translation>
    </message>
    <message>
        <source>decide on missed runs</source>
        <translation>über versäumte Läufe entscheiden</translation>
    </message>
    <message>
        <source>prune the occurrence ledger</source>
        <translation>Ausführungsbuch ausdünnen</translation>
    </message>
    <message>
        <source>prune the alerts</source>
        <translation>Alarme ausdünnen</translation>
    </message>
</context>
<context>
    <name>hg::OccurrenceStrip</name>
    <message>
        <source>Recent occurrences</source>
        <translation>Letzte Auslösungen</translation>
    </message>
    <message>
        <source>No fire time in the last 24 hours.</source>
        <translation>Keine Auslösezeit in den letzten 24 Stunden.</translation>
    </message>
</context>
<context>
    <name>hg::OccurrencesModel</name>
    <message>
        <source>Fire time</source>
        <translation>Auslösezeit</translation>
    </message>
    <message>
        <source>Chain</source>
        <translation>Kette</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Fire times</source>
        <translation>Auslösezeiten</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>Einzelheiten</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>no fire time</source>
        <translation>keine Auslösezeit</translation>
    </message>
</context>
<context>
    <name>hg::OutboxRepository</name>
    <message>
        <source>read the notifications due</source>
        <translation>fällige Benachrichtigungen lesen</translation>
    </message>
    <message>
        <source>claim the notifications due</source>
        <translation>fällige Benachrichtigungen übernehmen</translation>
    </message>
    <message>
        <source>keep a notification&apos;s message</source>
        <translation>Nachricht einer Benachrichtigung speichern</translation>
    </message>
    <message>
        <source>settle a notification</source>
        <translation>Benachrichtigung abschließen</translation>
    </message>
    <message>
        <source>list notifications</source>
        <translation>Benachrichtigungen auflisten</translation>
    </message>
    <message>
        <source>count notifications</source>
        <translation>Benachrichtigungen zählen</translation>
    </message>
    <message>
        <source>give notifications back</source>
        <translation>Benachrichtigungen zurückgeben</translation>
    </message>
    <message>
        <source>lock a channel</source>
        <translation>Sperren eines Kanals</translation>
    </message>
    <message>
        <source>hold a notification back</source>
        <translation>Zurückhalten einer Benachrichtigung</translation>
    </message>
    <message>
        <source>add a digest of held notifications</source>
        <translation>Hinzufügen einer Sammelnachricht zurückgehaltener Benachrichtigungen</translation>
    </message>
    <message>
        <source>take the held notifications</source>
        <translation>Übernehmen der zurückgehaltenen Benachrichtigungen</translation>
    </message>
    <message>
        <source>read the held notifications</source>
        <translation>Lesen der zurückgehaltenen Benachrichtigungen</translation>
    </message>
    <message>
        <source>held back; told of in digest %1</source>
        <translation>zurückgehalten; in Sammelnachricht %1 berichtet</translation>
    </message>
    <message>
        <source>write an engine event</source>
        <translation>Schreiben eines Engine-Ereignisses</translation>
    </message>
    <message>
        <source>queue a test message</source>
        <translation>eine Testnachricht einreihen</translation>
    </message>
    <message>
        <source>read a notification</source>
        <translation>eine Benachrichtigung lesen</translation>
    </message>
    <message>
        <source>notification %1 is gone (its channel was removed)</source>
        <translation>Benachrichtigung %1 ist fort (ihr Kanal wurde entfernt)</translation>
    </message>
    <message>
        <source>withdraw a test message</source>
        <translation>eine Testnachricht zurücknehmen</translation>
    </message>
</context>
<context>
    <name>hg::OverviewChainsModel</name>
    <message>
        <source>Chain</source>
        <translation>Kette</translation>
    </message>
    <message>
        <source>Last runs</source>
        <translation>Letzte Läufe</translation>
    </message>
    <message>
        <source>Last result</source>
        <translation>Letztes Ergebnis</translation>
    </message>
    <message>
        <source>never ran</source>
        <translation>nie gelaufen</translation>
    </message>
</context>
<context>
    <name>hg::OverviewPage</name>
    <message>
        <source>Running now</source>
        <translation>Läuft gerade</translation>
    </message>
    <message>
        <source>Recent failures</source>
        <translation>Letzte Fehlschläge</translation>
    </message>
    <message>
        <source>Next fires</source>
        <translation>Nächste Auslösungen</translation>
    </message>
    <message>
        <source>Chains and their last runs</source>
        <translation>Ketten und ihre letzten Läufe</translation>
    </message>
    <message>
        <source>Chains: the last %1 runs, height by duration</source>
        <translation>Ketten: die letzten %1 Läufe, Höhe nach Dauer</translation>
    </message>
    <message>
        <source>Overview of %1</source>
        <translation>Übersicht über %1</translation>
    </message>
    <message>
        <source>Overview of every project</source>
        <translation>Übersicht über alle Projekte</translation>
    </message>
    <message>
        <source>%1 — run %2, since %3</source>
        <translation>%1 — Lauf %2, seit %3</translation>
    </message>
    <message>
        <source>Nothing runs now.</source>
        <translation>Gerade läuft nichts.</translation>
    </message>
    <message>
        <source>%1 — run %2, %3: %4</source>
        <translation>%1 — Lauf %2, %3: %4</translation>
    </message>
    <message>
        <source>No failures.</source>
        <translation>Keine Fehlschläge.</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Nothing fires in the next two days.</source>
        <translation>In den nächsten zwei Tagen löst nichts aus.</translation>
    </message>
    <message>
        <source>Enter or a double click opens the item</source>
        <translation>Eingabetaste oder Doppelklick öffnet den Eintrag</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>For each chain a bar per run, height by duration, colour by state; Enter or a double click opens the chain</source>
        <translation>Für jede Kette ein Balken je Lauf, Höhe nach Dauer, Farbe nach Zustand; Eingabetaste oder Doppelklick öffnet die Kette</translation>
    </message>
    <message>
        <source>Schedules are paused: none of these fires until you resume them.</source>
        <translation>Zeitpläne sind pausiert: keiner davon startet, bis Sie sie fortsetzen.</translation>
    </message>
    <message>
        <source>Chain → Pause all schedules (Ctrl+Shift+P) resumes them</source>
        <translation>Kette → Alle Zeitpläne pausieren (Strg+Umschalt+P) setzt sie fort</translation>
    </message>
    <message>
        <source>Overview — not read again: %1</source>
        <translation>Übersicht — nicht neu gelesen: %1</translation>
    </message>
    <message>
        <source>None of the chains the filter shows is among the next fires.</source>
        <translation>Keine der Ketten, die der Filter zeigt, ist unter den nächsten Auslösungen.</translation>
    </message>
    <message>
        <source>Chains started by other chains</source>
        <translation>Ketten, die andere Ketten starten</translation>
    </message>
</context>
<context>
    <name>hg::OverviewSnapshot</name>
    <message>
        <source>read the triggers between chains</source>
        <translation>die Auslöser zwischen Ketten lesen</translation>
    </message>
</context>
<context>
    <name>hg::PasswordFile</name>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>a password cannot hold a line break</source>
        <translation>ein Passwort darf keinen Zeilenumbruch enthalten</translation>
    </message>
</context>
<context>
    <name>hg::PgAgentCalendar</name>
    <message numerus="yes">
        <source>%n exception(s) have no cron form</source>
        <translation>
            <numerusform>%n Ausnahme hat keine cron-Form</numerusform>
            <numerusform>%n Ausnahmen haben keine cron-Form</numerusform>
        </translation>
    </message>
    <message>
        <source>the last day together with other days: pgAgent then never fires on the last day, which cron cannot say</source>
        <translation>der letzte Tag zusammen mit anderen Tagen: pgAgent löst dann nie am letzten Tag aus, was cron nicht ausdrücken kann</translation>
    </message>
    <message>
        <source>the last day of the month on chosen weekdays has no cron form</source>
        <translation>der letzte Tag des Monats an ausgewählten Wochentagen hat keine cron-Form</translation>
    </message>
</context>
<context>
    <name>hg::PgAgentCatalog</name>
    <message>
        <source>read the schema</source>
        <translation>Lesen des Schemas</translation>
    </message>
    <message>
        <source>list jobs</source>
        <translation>Auflisten der Aufträge</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: no pgAgent job &apos;%2&apos;</source>
        <translation>Gegenstelle „%1“: kein pgAgent-Auftrag „%2“</translation>
    </message>
    <message>
        <source>read the steps</source>
        <translation>Lesen der Schritte</translation>
    </message>
    <message>
        <source>read the schedules</source>
        <translation>Lesen der Zeitpläne</translation>
    </message>
    <message>
        <source>read the exceptions</source>
        <translation>Lesen der Ausnahmen</translation>
    </message>
    <message>
        <source>read the history</source>
        <translation>Lesen des Verlaufs</translation>
    </message>
    <message>
        <source>read the step history</source>
        <translation>Lesen des Schrittverlaufs</translation>
    </message>
    <message>
        <source>start the job</source>
        <translation>Starten des Auftrags</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: no pgAgent job %2</source>
        <translation>Gegenstelle „%1“: kein pgAgent-Auftrag %2</translation>
    </message>
    <message>
        <source>enable the job</source>
        <translation>Aktivieren des Auftrags</translation>
    </message>
    <message>
        <source>disable the job</source>
        <translation>Deaktivieren des Auftrags</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: database &apos;%2&apos; holds no pgAgent schema (no table pgagent.pga_job; CREATE EXTENSION pgagent makes it)</source>
        <translation>Gegenstelle „%1“: Datenbank „%2“ enthält kein pgAgent-Schema (keine Tabelle pgagent.pga_job; CREATE EXTENSION pgagent legt es an)</translation>
    </message>
    <message>
        <source>schema %1</source>
        <translation>Schema %1</translation>
    </message>
    <message>
        <source>schema older than 3.4</source>
        <translation>Schema älter als 3.4</translation>
    </message>
    <message>
        <source>pgAgent schema %1 is newer than this Hourglass knows (%2): shown read only</source>
        <translation>pgAgent-Schema %1 ist neuer, als dieses Hourglass kennt (%2): nur lesend angezeigt</translation>
    </message>
    <message>
        <source>start a job</source>
        <translation>einen Auftrag starten</translation>
    </message>
    <message>
        <source>enable a job</source>
        <translation>einen Auftrag aktivieren</translation>
    </message>
    <message>
        <source>disable a job</source>
        <translation>einen Auftrag deaktivieren</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos; is read only (pgAgent %2): cannot %3</source>
        <translation>Gegenstelle „%1“ ist nur lesbar (pgAgent %2): kann nicht %3</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>internal failure</source>
        <translation>interner Fehler</translation>
    </message>
    <message>
        <source>aborted</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>ignored</source>
        <translation>ignoriert</translation>
    </message>
</context>
<context>
    <name>hg::PgAgentConverter</name>
    <message>
        <source>job %1</source>
        <translation>Auftrag %1</translation>
    </message>
    <message>
        <source>pgAgent runs it only on agent %1; Hourglass runs it on its engine</source>
        <translation>pgAgent führt ihn nur auf dem Agenten %1 aus; Hourglass führt ihn auf seiner Engine aus</translation>
    </message>
    <message>
        <source>job %1, step %2</source>
        <translation>Auftrag %1, Schritt %2</translation>
    </message>
    <message>
        <source>a disabled step, which pgAgent skips: not imported</source>
        <translation>ein deaktivierter Schritt, den pgAgent überspringt: nicht importiert</translation>
    </message>
    <message>
        <source>runs on its own connection string: add that database with hourglass remote add, then give the SQL task that connection</source>
        <translation>läuft über eine eigene Verbindungszeichenkette: diese Datenbank mit hourglass remote add hinzufügen und der SQL-Aufgabe dann diese Verbindung geben</translation>
    </message>
    <message>
        <source>runs on database %1, not %2 of this remote: add a connection for it, then give the SQL task that connection</source>
        <translation>läuft auf der Datenbank %1, nicht auf %2 dieser Gegenstelle: eine Verbindung dafür hinzufügen und der SQL-Aufgabe dann diese Verbindung geben</translation>
    </message>
    <message>
        <source>no step could be imported: nothing to run</source>
        <translation>kein Schritt ließ sich importieren: nichts auszuführen</translation>
    </message>
    <message>
        <source>job %1, schedule %2</source>
        <translation>Auftrag %1, Zeitplan %2</translation>
    </message>
    <message>
        <source>%1; its next fire times are listed</source>
        <translation>%1; seine nächsten Auslösezeiten sind aufgeführt</translation>
    </message>
    <message>
        <source>pgAgent job %1 on %2</source>
        <translation>pgAgent-Auftrag %1 auf %2</translation>
    </message>
    <message>
        <source>no schedule</source>
        <translation>kein Zeitplan</translation>
    </message>
</context>
<context>
    <name>hg::PgAgentJobPage</name>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>count as success</source>
        <translation>als Erfolg zählen</translation>
    </message>
    <message>
        <source>ignore</source>
        <translation>ignorieren</translation>
    </message>
    <message>
        <source>fail the job</source>
        <translation>Auftrag scheitern lassen</translation>
    </message>
    <message>
        <source>every day</source>
        <translation>jeden Tag</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1 um %2</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>Read the job and its history again</source>
        <translation>Den Auftrag und seinen Verlauf neu lesen</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>Auftrag</translation>
    </message>
    <message>
        <source>R&amp;un now</source>
        <translation>&amp;Jetzt ausführen</translation>
    </message>
    <message>
        <source>Set the job&apos;s next run to now, as pgAdmin does: the next agent that polls this database runs it</source>
        <translation>Den nächsten Lauf des Auftrags auf jetzt setzen, wie pgAdmin es tut: der nächste Agent, der diese Datenbank abfragt, führt ihn aus</translation>
    </message>
    <message>
        <source>&amp;Enable</source>
        <translation>Akti&amp;vieren</translation>
    </message>
    <message>
        <source>&amp;Disable</source>
        <translation>&amp;Deaktivieren</translation>
    </message>
    <message>
        <source>&amp;Import as local chain…</source>
        <translation>Als lokale Kette &amp;importieren…</translation>
    </message>
    <message>
        <source>Make a local chain of this job: its steps become tasks, its schedules cron schedules where they can</source>
        <translation>Aus diesem Auftrag eine lokale Kette machen: seine Schritte werden Aufgaben, seine Zeitpläne Cron-Zeitpläne, wo es geht</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Runs on</source>
        <translation>Läuft auf</translation>
    </message>
    <message>
        <source>On error</source>
        <translation>Bei Fehler</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Aktiviert</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>Code</translation>
    </message>
    <message>
        <source>Schedules</source>
        <translation>Zeitpläne</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Run / step</source>
        <translation>Lauf / Schritt</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>&amp;More runs</source>
        <translation>&amp;Weitere Läufe</translation>
    </message>
    <message numerus="yes">
        <source>Read the next %n older runs</source>
        <translation>
            <numerusform>Den nächsten älteren Lauf lesen</numerusform>
            <numerusform>Die nächsten %n älteren Läufe lesen</numerusform>
        </translation>
    </message>
    <message>
        <source>Step output</source>
        <translation>Ausgabe des Schritts</translation>
    </message>
    <message>
        <source>The output of the selected run or step</source>
        <translation>Die Ausgabe des gewählten Laufs oder Schritts</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 auf %2</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Reading job &apos;%1&apos; from &apos;%2&apos;…</source>
        <translation>Lese Auftrag „%1“ von „%2“…</translation>
    </message>
    <message>
        <source>Disabled</source>
        <translation>Deaktiviert</translation>
    </message>
    <message>
        <source>class %1</source>
        <translation>Klasse %1</translation>
    </message>
    <message>
        <source>runs on any agent</source>
        <translation>läuft auf jedem Agenten</translation>
    </message>
    <message>
        <source>runs on agent %1</source>
        <translation>läuft auf Agent %1</translation>
    </message>
    <message>
        <source>next run %1</source>
        <translation>nächster Lauf %1</translation>
    </message>
    <message>
        <source>last run %1</source>
        <translation>letzter Lauf %1</translation>
    </message>
    <message>
        <source>the agent&apos;s host (batch)</source>
        <translation>dem Rechner des Agenten (Batch)</translation>
    </message>
    <message>
        <source>database %1</source>
        <translation>Datenbank %1</translation>
    </message>
    <message>
        <source>SQL</source>
        <translation>SQL</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>Batch</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>No schedule: the job runs only when started.</source>
        <translation>Kein Zeitplan: der Auftrag läuft nur, wenn er gestartet wird.</translation>
    </message>
    <message>
        <source>Schedules, in the server&apos;s zone %1:</source>
        <translation>Zeitpläne, in der Zeitzone des Servers %1:</translation>
    </message>
    <message>
        <source>%1 (cron %2)</source>
        <translation>%1 (Cron %2)</translation>
    </message>
    <message>
        <source>%1%2: %3</source>
        <translation>%1%2: %3</translation>
    </message>
    <message>
        <source> (disabled)</source>
        <translation> (deaktiviert)</translation>
    </message>
    <message>
        <source>From %1 to %2.</source>
        <translation>Von %1 bis %2.</translation>
    </message>
    <message>
        <source>From %1 on.</source>
        <translation>Ab %1.</translation>
    </message>
    <message>
        <source>Except %1.</source>
        <translation>Außer %1.</translation>
    </message>
    <message>
        <source>It fires no more.</source>
        <translation>Er löst nicht mehr aus.</translation>
    </message>
    <message>
        <source>Next: %1</source>
        <translation>Nächste: %1</translation>
    </message>
    <message>
        <source>It does not fire while disabled.</source>
        <translation>Er löst nicht aus, solange er deaktiviert ist.</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>Lauf %1</translation>
    </message>
    <message>
        <source>— %1: %2, result %3 —</source>
        <translation>— %1: %2, Ergebnis %3 —</translation>
    </message>
    <message>
        <source>(no output)</source>
        <translation>(keine Ausgabe)</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n Schritt</numerusform>
            <numerusform>%n Schritte</numerusform>
        </translation>
    </message>
    <message>
        <source>Job &apos;%1&apos; is due now: the next agent that polls &apos;%2&apos; runs it. Its run appears below when it starts.</source>
        <translation>Auftrag „%1“ ist jetzt fällig: der nächste Agent, der „%2“ abfragt, führt ihn aus. Sein Lauf erscheint unten, sobald er beginnt.</translation>
    </message>
    <message>
        <source>Job &apos;%1&apos; enabled.</source>
        <translation>Auftrag „%1“ aktiviert.</translation>
    </message>
    <message>
        <source>Job &apos;%1&apos; disabled.</source>
        <translation>Auftrag „%1“ deaktiviert.</translation>
    </message>
</context>
<context>
    <name>hg::PgInterval</name>
    <message>
        <source>&apos;%1&apos; is not an ISO 8601 duration</source>
        <translation>„%1“ ist keine ISO-8601-Dauer</translation>
    </message>
    <message>
        <source>interval is empty</source>
        <translation>das Intervall ist leer</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an interval: cannot read &apos;%2&apos;</source>
        <translation>„%1“ ist kein Intervall: „%2“ ist nicht lesbar</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an interval unit</source>
        <translation>„%1“ ist keine Intervalleinheit</translation>
    </message>
    <message>
        <source>interval &apos;%1&apos; is longer than 100 years</source>
        <translation>das Intervall „%1“ ist länger als 100 Jahre</translation>
    </message>
    <message>
        <source>interval &apos;%1&apos; must be at least one second</source>
        <translation>das Intervall „%1“ muss mindestens eine Sekunde lang sein</translation>
    </message>
</context>
<context>
    <name>hg::PgTimetableBuiltins</name>
    <message>
        <source>task %1: its %2 parameter is not a JSON object: %3</source>
        <translation>Aufgabe %1: ihr %2-Parameter ist kein JSON-Objekt: %3</translation>
    </message>
    <message>
        <source>task %1: its %2 &apos;%3&apos; is relative to pg_timetable&apos;s working folder; give it as an absolute path</source>
        <translation>Aufgabe %1: ihr %2 „%3“ ist relativ zum Arbeitsordner von pg_timetable; als absoluten Pfad angeben</translation>
    </message>
    <message>
        <source>task %1: its SendMail password has nowhere to be kept</source>
        <translation>Aufgabe %1: ihr SendMail-Passwort kann nirgends verwahrt werden</translation>
    </message>
    <message>
        <source>task %1: its SendMail password cannot be kept: %2</source>
        <translation>Aufgabe %1: ihr SendMail-Passwort kann nicht verwahrt werden: %2</translation>
    </message>
    <message>
        <source>task %1: its SendMail password is kept apart from the store, in the keychain (or a file only you may read), as %2; pg_timetable keeps it in timetable.parameter in plain text</source>
        <translation>Aufgabe %1: ihr SendMail-Passwort wird getrennt vom Speicher verwahrt, im Schlüsselbund (oder einer Datei, die nur Sie lesen dürfen), als %2; pg_timetable hält es im Klartext in timetable.parameter</translation>
    </message>
    <message>
        <source>task %1: Hourglass sends by STARTTLS and checks the server&apos;s certificate; pg_timetable went on in clear text where the server offered no STARTTLS</source>
        <translation>Aufgabe %1: Hourglass sendet per STARTTLS und prüft das Zertifikat des Servers; pg_timetable machte im Klartext weiter, wo der Server kein STARTTLS anbot</translation>
    </message>
    <message>
        <source>task %1: its Download names no fileurls</source>
        <translation>Aufgabe %1: ihr Download nennt keine fileurls</translation>
    </message>
    <message>
        <source>task %1: the URL %2 names no file to save it as</source>
        <translation>Aufgabe %1: die URL %2 nennt keine Datei, unter der sie gespeichert werden kann</translation>
    </message>
    <message>
        <source>task %1: its %2 URLs are downloaded one after another, by %3-1 to %3-%2</source>
        <translation>Aufgabe %1: ihre %2 URLs werden nacheinander heruntergeladen, von %3-1 bis %3-%2</translation>
    </message>
    <message>
        <source>task %1: pg_timetable&apos;s Shutdown ends the pg_timetable process (exit code 5, not restarted); an Hourglass engine serves every chain of its store and is stopped by its service manager (systemctl stop hourglass), not by a task</source>
        <translation>Aufgabe %1: Shutdown von pg_timetable beendet den pg_timetable-Prozess (Exit-Code 5, kein Neustart); eine Hourglass-Engine bedient jede Kette ihres Speichers und wird von ihrem Dienstverwalter beendet (systemctl stop hourglass), nicht von einer Aufgabe</translation>
    </message>
    <message>
        <source>task %1: pg_timetable has no builtin &apos;%2&apos;</source>
        <translation>Aufgabe %1: pg_timetable hat keinen eingebauten Befehl „%2“</translation>
    </message>
    <message>
        <source>task %1: pg_timetable uses implicit TLS on port 465 and only there (this one: %2 on port %3)</source>
        <translation>Aufgabe %1: pg_timetable nutzt implizites TLS auf Port 465 und nur dort (diese: %2 auf Port %3)</translation>
    </message>
    <message>
        <source>task %1: its password stays here (pg_timetable would keep it in timetable.parameter in plain text); add &quot;password&quot; to that row yourself if the server needs one</source>
        <translation>Aufgabe %1: ihr Passwort bleibt hier (pg_timetable hielte es im Klartext in timetable.parameter); fügen Sie &quot;password&quot; dieser Zeile selbst hinzu, wenn der Server eines braucht</translation>
    </message>
    <message>
        <source>task %1: its Download sends headers; pg_timetable&apos;s cannot</source>
        <translation>Aufgabe %1: ihr Download sendet Header; der von pg_timetable kann das nicht</translation>
    </message>
    <message>
        <source>task %1 is the builtin %2, which pg_timetable does not have</source>
        <translation>Aufgabe %1 ist der eingebaute Befehl %2, den pg_timetable nicht hat</translation>
    </message>
</context>
<context>
    <name>hg::PgTimetableCatalog</name>
    <message>
        <source>task %1: kind &apos;%2&apos; is not SQL, PROGRAM or BUILTIN</source>
        <translation>Task %1: Art &apos;%2&apos; ist weder SQL noch PROGRAM noch BUILTIN</translation>
    </message>
    <message>
        <source>task %1: the command is empty</source>
        <translation>Task %1: der Befehl ist leer</translation>
    </message>
    <message>
        <source>task %1: parameter %2 is not JSON: %3</source>
        <translation>Task %1: Parameter %2 ist kein JSON: %3</translation>
    </message>
    <message>
        <source>read the server&apos;s settings</source>
        <translation>die Einstellungen des Servers lesen</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: database &apos;%2&apos; holds no pg_timetable schema (no table timetable.migration); pg_timetable creates it when its worker first connects</source>
        <translation>Remote &apos;%1&apos;: Datenbank &apos;%2&apos; enthält kein pg_timetable-Schema (keine Tabelle timetable.migration); pg_timetable legt es an, wenn sich sein Worker zum ersten Mal verbindet</translation>
    </message>
    <message>
        <source>read timetable.migration</source>
        <translation>timetable.migration lesen</translation>
    </message>
    <message>
        <source>%1.x (migration %2)</source>
        <translation>%1.x (Migration %2)</translation>
    </message>
    <message>
        <source>pg_timetable&apos;s schema is newer than 6.x (migration &apos;%1&apos;): shown read only, so Hourglass changes nothing it may not understand</source>
        <translation>das Schema von pg_timetable ist neuer als 6.x (Migration &apos;%1&apos;): nur lesend angezeigt, damit Hourglass nichts ändert, was es womöglich nicht versteht</translation>
    </message>
    <message>
        <source>pg_timetable&apos;s schema is older than 5.0 (migration &apos;%1&apos;): shown read only; pg_timetable 5 or 6 upgrades it when it connects</source>
        <translation>das Schema von pg_timetable ist älter als 5.0 (Migration &apos;%1&apos;): nur lesend angezeigt; pg_timetable 5 oder 6 aktualisiert es beim Verbinden</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos; is read only (%2): cannot %3</source>
        <translation>Remote &apos;%1&apos; ist nur lesbar (%2): %3 nicht möglich</translation>
    </message>
    <message>
        <source>list chains</source>
        <translation>Ketten auflisten</translation>
    </message>
    <message>
        <source>find chain &apos;%1&apos;</source>
        <translation>Kette &apos;%1&apos; suchen</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos; has no chain &apos;%2&apos;</source>
        <translation>Remote &apos;%1&apos; hat keine Kette &apos;%2&apos;</translation>
    </message>
    <message>
        <source>read chain &apos;%1&apos;</source>
        <translation>Kette &apos;%1&apos; lesen</translation>
    </message>
    <message>
        <source>read the tasks of &apos;%1&apos;</source>
        <translation>die Tasks von &apos;%1&apos; lesen</translation>
    </message>
    <message>
        <source>read the parameters of &apos;%1&apos;</source>
        <translation>die Parameter von &apos;%1&apos; lesen</translation>
    </message>
    <message>
        <source>read the chain&apos;s tasks</source>
        <translation>die Tasks der Kette lesen</translation>
    </message>
    <message>
        <source>task %1 does not belong to the chain</source>
        <translation>Task %1 gehört nicht zur Kette</translation>
    </message>
    <message>
        <source>delete task %1</source>
        <translation>Task %1 löschen</translation>
    </message>
    <message>
        <source>write task &apos;%1&apos;</source>
        <translation>Task &apos;%1&apos; schreiben</translation>
    </message>
    <message>
        <source>replace the parameters of &apos;%1&apos;</source>
        <translation>die Parameter von &apos;%1&apos; ersetzen</translation>
    </message>
    <message>
        <source>write the parameters of &apos;%1&apos;</source>
        <translation>die Parameter von &apos;%1&apos; schreiben</translation>
    </message>
    <message>
        <source>change chain &apos;%1&apos;</source>
        <translation>Kette &apos;%1&apos; ändern</translation>
    </message>
    <message>
        <source>save chain &apos;%1&apos;</source>
        <translation>Kette &apos;%1&apos; speichern</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos; has no chain %2 any more (deleted meanwhile?)</source>
        <translation>Remote &apos;%1&apos; hat keine Kette %2 mehr (inzwischen gelöscht?)</translation>
    </message>
    <message>
        <source>add chain &apos;%1&apos;</source>
        <translation>Kette „%1“ anlegen</translation>
    </message>
    <message>
        <source>add job &apos;%1&apos;</source>
        <translation>Job &apos;%1&apos; anlegen</translation>
    </message>
    <message>
        <source>delete &apos;%1&apos;</source>
        <translation>&apos;%1&apos; löschen</translation>
    </message>
    <message>
        <source>delete job &apos;%1&apos;</source>
        <translation>Job &apos;%1&apos; löschen</translation>
    </message>
    <message>
        <source>enable &apos;%1&apos;</source>
        <translation>&apos;%1&apos; aktivieren</translation>
    </message>
    <message>
        <source>disable &apos;%1&apos;</source>
        <translation>&apos;%1&apos; deaktivieren</translation>
    </message>
    <message>
        <source>starting &apos;%1&apos; needs the worker (client name) that should run it; see the active sessions</source>
        <translation>zum Starten von &apos;%1&apos; muss der Worker (Client-Name) angegeben werden, der sie ausführen soll; siehe die aktiven Sitzungen</translation>
    </message>
    <message>
        <source>start chain &apos;%1&apos;</source>
        <translation>Kette &apos;%1&apos; starten</translation>
    </message>
    <message>
        <source>stopping &apos;%1&apos; needs the worker (client name) that runs it</source>
        <translation>zum Anhalten von &apos;%1&apos; muss der Worker (Client-Name) angegeben werden, der sie ausführt</translation>
    </message>
    <message>
        <source>stop chain &apos;%1&apos;</source>
        <translation>Kette &apos;%1&apos; anhalten</translation>
    </message>
    <message>
        <source>read the active sessions</source>
        <translation>die aktiven Sitzungen lesen</translation>
    </message>
    <message>
        <source>read execution_log</source>
        <translation>execution_log lesen</translation>
    </message>
    <message>
        <source>newer than 6.x (migration %1; Hourglass knows 5.x and 6.x)</source>
        <translation>neuer als 6.x (Migration %1; Hourglass kennt 5.x und 6.x)</translation>
    </message>
    <message>
        <source>older than 5.0 (migration %1)</source>
        <translation>älter als 5.0 (Migration %1)</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos; has a chain named &apos;%2&apos; already (chain %3); pg_timetable&apos;s chain names are unique: rename one of them</source>
        <translation>die Gegenstelle „%1“ hat bereits eine Kette namens „%2“ (Kette %3); die Kettennamen von pg_timetable sind eindeutig: eine davon umbenennen</translation>
    </message>
</context>
<context>
    <name>hg::PgTimetableChainPage</name>
    <message>
        <source>timetable.cron: five cron fields, @every INTERVAL, @after INTERVAL or @reboot; empty: started only on demand</source>
        <translation>timetable.cron: fünf Cron-Felder, @every INTERVALL, @after INTERVALL oder @reboot; leer: nur bei Bedarf gestartet</translation>
    </message>
    <message>
        <source>Live (scheduled)</source>
        <translation>Aktiv (geplant)</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>keine Grenze</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>any worker</source>
        <translation>jeder Worker</translation>
    </message>
    <message>
        <source>Exclusive: other chains wait while it runs</source>
        <translation>Exklusiv: andere Ketten warten, solange sie läuft</translation>
    </message>
    <message>
        <source>Self-destruct after a successful run</source>
        <translation>Nach erfolgreichem Lauf selbst löschen</translation>
    </message>
    <message>
        <source>Run at:</source>
        <translation>Ausführen um:</translation>
    </message>
    <message>
        <source>Max instances:</source>
        <translation>Höchstzahl Instanzen:</translation>
    </message>
    <message>
        <source>Timeout:</source>
        <translation>Zeitlimit:</translation>
    </message>
    <message>
        <source>Client name:</source>
        <translation>Client-Name:</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Reihenfolge</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Ignore error</source>
        <translation>Fehler ignorieren</translation>
    </message>
    <message>
        <source>Autonomous</source>
        <translation>Autonom</translation>
    </message>
    <message>
        <source>Timeout (ms)</source>
        <translation>Zeitlimit (ms)</translation>
    </message>
    <message>
        <source>Database connection</source>
        <translation>Datenbankverbindung</translation>
    </message>
    <message>
        <source>A JSON array of parameter rows: pg_timetable runs the task once per row, for example [[&quot;a&quot;, 1]]</source>
        <translation>Ein JSON-Array von Parameterzeilen: pg_timetable führt den Task je Zeile einmal aus, zum Beispiel [[&quot;a&quot;, 1]]</translation>
    </message>
    <message>
        <source>Tasks in order</source>
        <translation>Tasks in Reihenfolge</translation>
    </message>
    <message>
        <source>Add task</source>
        <translation>Task hinzufügen</translation>
    </message>
    <message>
        <source>Remove task</source>
        <translation>Task entfernen</translation>
    </message>
    <message>
        <source>Save to pg_timetable</source>
        <translation>In pg_timetable speichern</translation>
    </message>
    <message>
        <source>The pg_timetable worker (client name) to start or stop it on</source>
        <translation>Der pg_timetable-Worker (Client-Name), auf dem sie gestartet oder angehalten wird</translation>
    </message>
    <message>
        <source>Worker</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Löschen…</translation>
    </message>
    <message>
        <source>Import into a local project</source>
        <translation>In ein lokales Projekt importieren</translation>
    </message>
    <message>
        <source>Worker:</source>
        <translation>Worker:</translation>
    </message>
    <message>
        <source>Delete chain</source>
        <translation>Kette löschen</translation>
    </message>
    <message>
        <source>Delete chain &apos;%1&apos; and its tasks from pg_timetable on &apos;%2&apos;? Its run history stays.</source>
        <translation>Kette &apos;%1&apos; samt Tasks aus pg_timetable auf &apos;%2&apos; löschen? Ihr Laufprotokoll bleibt erhalten.</translation>
    </message>
    <message>
        <source>Runs (execution_log), newest first</source>
        <translation>Läufe (execution_log), neueste zuerst</translation>
    </message>
    <message>
        <source>Failed only</source>
        <translation>Nur fehlgeschlagene</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Task</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Ausgabe</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <source>Load more</source>
        <translation>Mehr laden</translation>
    </message>
    <message>
        <source>%1 — pg_timetable on &apos;%2&apos;</source>
        <translation>%1 — pg_timetable auf &apos;%2&apos;</translation>
    </message>
    <message>
        <source>Reading chain &apos;%1&apos; from &apos;%2&apos;…</source>
        <translation>Kette &apos;%1&apos; wird von &apos;%2&apos; gelesen…</translation>
    </message>
    <message>
        <source>%1 (pid %2, since %3)%4</source>
        <translation>%1 (PID %2, seit %3)%4</translation>
    </message>
    <message>
        <source>: running %1</source>
        <translation>: führt %1 aus</translation>
    </message>
    <message>
        <source>No pg_timetable worker is connected.</source>
        <translation>Kein pg_timetable-Worker ist verbunden.</translation>
    </message>
    <message>
        <source>Connected workers: %1</source>
        <translation>Verbundene Worker: %1</translation>
    </message>
    <message>
        <source>%1 %2, time zone %3</source>
        <translation>%1 %2, Zeitzone %3</translation>
    </message>
    <message>
        <source>No schedule: the chain runs only when started.</source>
        <translation>Kein Zeitplan: die Kette läuft nur, wenn sie gestartet wird.</translation>
    </message>
    <message>
        <source>%1. Next: %2</source>
        <translation>%1. Nächste: %2</translation>
    </message>
    <message>
        <source>Task %1: the parameters must be a JSON array of rows, for example [[&quot;a&quot;, 1]]</source>
        <translation>Task %1: die Parameter müssen ein JSON-Array von Zeilen sein, zum Beispiel [[&quot;a&quot;, 1]]</translation>
    </message>
    <message>
        <source>Saving &apos;%1&apos;…</source>
        <translation>&apos;%1&apos; wird gespeichert…</translation>
    </message>
    <message>
        <source>Nothing was saved: %1</source>
        <translation>Nichts wurde gespeichert: %1</translation>
    </message>
    <message>
        <source>Start sent to worker &apos;%1&apos;.</source>
        <translation>Start an Worker &apos;%1&apos; gesendet.</translation>
    </message>
    <message>
        <source>Stop sent to worker &apos;%1&apos;.</source>
        <translation>Anhalten an Worker &apos;%1&apos; gesendet.</translation>
    </message>
    <message>
        <source>failed (%1)</source>
        <translation>fehlgeschlagen (%1)</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <source>Runs started within</source>
        <translation>Läufe, gestartet innerhalb</translation>
    </message>
    <message>
        <source>Any time</source>
        <translation>Jederzeit</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>Letzte Stunde</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>Letzte 24 Stunden</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>Letzte 30 Tage</translation>
    </message>
    <message>
        <source>No runs yet</source>
        <translation>Noch keine Läufe</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>Wird gelesen…</translation>
    </message>
    <message>
        <source>%1… (%L2 characters: too long to edit here)</source>
        <translation>%1… (%L2 Zeichen: zu lang, um es hier zu bearbeiten)</translation>
    </message>
</context>
<context>
    <name>hg::PgTimetableConverter</name>
    <message>
        <source>task %1: its parameter %2 is not a JSON array</source>
        <translation>Task %1: sein Parameter %2 ist kein JSON-Array</translation>
    </message>
    <message>
        <source>task %1: it runs on another database (database_connection); add that database as a connection first</source>
        <translation>Task %1: er läuft auf einer anderen Datenbank (database_connection); legen Sie diese Datenbank zuerst als Verbindung an</translation>
    </message>
    <message>
        <source>Imported from pg_timetable (remote &apos;%1&apos;, chain %2)</source>
        <translation>Aus pg_timetable importiert (Remote &apos;%1&apos;, Kette %2)</translation>
    </message>
    <message>
        <source>chain %1 has %2 schedules; a pg_timetable chain has one</source>
        <translation>Kette %1 hat %2 Zeitpläne; eine pg_timetable-Kette hat einen</translation>
    </message>
    <message>
        <source>chain %1: its schedule &apos;%2&apos; is not a pg_timetable schedule: %3</source>
        <translation>Kette %1: ihr Zeitplan &apos;%2&apos; ist kein pg_timetable-Zeitplan: %3</translation>
    </message>
    <message>
        <source>task %1 waits for two tasks (%2 and %3): pg_timetable chains are linear</source>
        <translation>Task %1 wartet auf zwei Tasks (%2 und %3): pg_timetable-Ketten sind linear</translation>
    </message>
    <message>
        <source>task %1 starts two branches (%2 and %3) in parallel: pg_timetable chains are linear</source>
        <translation>Task %1 startet zwei Zweige (%2 und %3) parallel: pg_timetable-Ketten sind linear</translation>
    </message>
    <message>
        <source>tasks %1 and %2 both start the chain, in parallel: pg_timetable chains are linear</source>
        <translation>die Tasks %1 und %2 beginnen beide die Kette, parallel: pg_timetable-Ketten sind linear</translation>
    </message>
    <message>
        <source>task %1 retries on failure: pg_timetable has no per-task retries</source>
        <translation>Task %1 wird bei Fehlern wiederholt: pg_timetable kennt keine Wiederholungen je Task</translation>
    </message>
    <message>
        <source>task %1 sets its environment or working directory: pg_timetable cannot</source>
        <translation>Task %1 setzt seine Umgebung oder sein Arbeitsverzeichnis: pg_timetable kann das nicht</translation>
    </message>
    <message>
        <source>chain %1: its tasks form a cycle</source>
        <translation>Kette %1: ihre Tasks bilden einen Zyklus</translation>
    </message>
    <message>
        <source>task %1 is a %2 task: pg_timetable runs SQL, programs and its builtins</source>
        <translation>Aufgabe %1 ist eine %2-Aufgabe: pg_timetable führt SQL, Programme und seine eingebauten Befehle aus</translation>
    </message>
    <message>
        <source>task %1: its %2 parameter rows run as tasks %1-1 to %1-%2, one after another</source>
        <translation>Aufgabe %1: ihre %2 Parameterzeilen laufen als Aufgaben %1-1 bis %1-%2, eine nach der anderen</translation>
    </message>
</context>
<context>
    <name>hg::ProjectImporter</name>
    <message>
        <source>import: %1: %2</source>
        <translation>Import: %1: %2</translation>
    </message>
    <message>
        <source>import: malformed JSON at byte %1: %2</source>
        <translation>Import: fehlerhaftes JSON bei Byte %1: %2</translation>
    </message>
    <message>
        <source>import: the document is not a JSON object</source>
        <translation>Import: das Dokument ist kein JSON-Objekt</translation>
    </message>
    <message>
        <source>import: not an Hourglass export (format is not &apos;%1&apos;)</source>
        <translation>Import: kein Hourglass-Export (das Format ist nicht „%1“)</translation>
    </message>
    <message>
        <source>import: document version %1 is not supported (this Hourglass reads 1 to %2)</source>
        <translation>Import: die Dokumentversion %1 wird nicht unterstützt (dieses Hourglass liest 1 bis %2)</translation>
    </message>
    <message>
        <source>expected an object</source>
        <translation>Objekt erwartet</translation>
    </message>
    <message>
        <source>import: %1</source>
        <translation>Import: %1</translation>
    </message>
    <message>
        <source>import: chain &apos;%1/%2&apos; already exists</source>
        <translation>Import: die Kette „%1/%2“ gibt es bereits</translation>
    </message>
    <message>
        <source>expected [x, y]</source>
        <translation>[x, y] erwartet</translation>
    </message>
    <message>
        <source>import: %1: unknown task &apos;%2&apos;</source>
        <translation>Import: %1: unbekannte Aufgabe „%2“</translation>
    </message>
    <message>
        <source>a day of the week is 1 to 7</source>
        <translation>ein Wochentag ist 1 bis 7</translation>
    </message>
    <message>
        <source>&apos;%1&apos; to &apos;%2&apos; is not a range of days</source>
        <translation>„%1“ bis „%2“ ist kein Zeitraum von Tagen</translation>
    </message>
    <message>
        <source>no calendar named &apos;%1&apos; in the document or this store</source>
        <translation>kein Kalender namens „%1“ im Dokument oder in diesem Speicher</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a DST rule (run-after or skip, once or both, or cronie)</source>
        <translation>„%1“ ist keine Sommerzeitregel (run-after oder skip, once oder both, oder cronie)</translation>
    </message>
    <message>
        <source>expected seconds from 0 to a year</source>
        <translation>Sekunden von 0 bis zu einem Jahr erwartet</translation>
    </message>
    <message>
        <source>expected a factor from 0 to 1000</source>
        <translation>einen Faktor von 0 bis 1000 erwartet</translation>
    </message>
    <message>
        <source>no channel named &apos;%1&apos; in this store (add it with `hourglass channel add`, or leave &quot;channel&quot; out for the default e-mail channel)</source>
        <translation>kein Kanal namens „%1“ in diesem Speicher (mit `hourglass channel add` anlegen, oder „channel“ weglassen für den Standard-E-Mail-Kanal)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an event (%2)</source>
        <translation>„%1“ ist kein Ereignis (%2)</translation>
    </message>
    <message>
        <source>name one event at least</source>
        <translation>mindestens ein Ereignis nennen</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an e-mail address</source>
        <translation>„%1“ ist keine E-Mail-Adresse</translation>
    </message>
    <message>
        <source>import: %1: %2 routes; %3 at most</source>
        <translation>Import: %1: %2 Routen; höchstens %3</translation>
    </message>
    <message>
        <source>a channel&apos;s name, or no &quot;channel&quot; for the default e-mail channel</source>
        <translation>der Name eines Kanals, oder kein „channel“ für den Standard-E-Mail-Kanal</translation>
    </message>
    <message>
        <source>recipients are for e-mail channels</source>
        <translation>Empfänger gibt es nur für E-Mail-Kanäle</translation>
    </message>
    <message>
        <source>%1 recipients; %2 at most</source>
        <translation>%1 Empfänger; höchstens %2</translation>
    </message>
    <message>
        <source>import: %1: a second channel named &apos;%2&apos;</source>
        <translation>Import: %1: ein zweiter Kanal namens „%2“</translation>
    </message>
    <message>
        <source>channel &apos;%1&apos; came without its secrets (they stay where it was exported), and sends nothing until it has them: give them with `hourglass channel set %1 %2`</source>
        <translation>Kanal „%1“ kam ohne seine Geheimnisse (sie bleiben, wo er exportiert wurde) und sendet nichts, bis er sie hat: mit `hourglass channel set %1 %2` angeben</translation>
    </message>
    <message>
        <source>task %1/%2/%3 came without its SendMail password (it stays where it was exported): type it in the task form&apos;s password field</source>
        <translation>Aufgabe %1/%2/%3 kam ohne ihr SendMail-Passwort (es bleibt, wo sie exportiert wurde): es im Passwortfeld des Aufgabenformulars eintippen</translation>
    </message>
</context>
<context>
    <name>hg::ProjectRepository</name>
    <message>
        <source>add project &apos;%1&apos;</source>
        <translation>Hinzufügen des Projekts „%1“</translation>
    </message>
    <message>
        <source>project &apos;%1&apos; already exists</source>
        <translation>Projekt „%1“ gibt es bereits</translation>
    </message>
    <message>
        <source>read project</source>
        <translation>Lesen des Projekts</translation>
    </message>
    <message>
        <source>unknown project &apos;%1&apos;</source>
        <translation>unbekanntes Projekt „%1“</translation>
    </message>
    <message>
        <source>unknown project id %1</source>
        <translation>unbekannte Projekt-ID %1</translation>
    </message>
    <message>
        <source>list projects</source>
        <translation>Auflisten der Projekte</translation>
    </message>
    <message>
        <source>rename project</source>
        <translation>Umbenennen des Projekts</translation>
    </message>
    <message>
        <source>count chains</source>
        <translation>Zählen der Ketten</translation>
    </message>
    <message>
        <source>project &apos;%1&apos; still has %2 chain(s); remove them first or pass --force</source>
        <translation>Projekt „%1“ hat noch %2 Kette(n); diese zuerst entfernen oder --force angeben</translation>
    </message>
    <message>
        <source>remove project &apos;%1&apos;</source>
        <translation>Entfernen des Projekts „%1“</translation>
    </message>
    <message>
        <source>project &apos;%1&apos;</source>
        <translation>Projekt &apos;%1&apos;</translation>
    </message>
</context>
<context>
    <name>hg::ProjectTreeModel</name>
    <message>
        <source>switched off</source>
        <translation>ausgeschaltet</translation>
    </message>
    <message>
        <source>never ran</source>
        <translation>nie gelaufen</translation>
    </message>
    <message>
        <source>last run %1: %2</source>
        <translation>letzter Lauf %1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%n chain(s) failed</source>
        <translation>
            <numerusform>%n Kette fehlgeschlagen</numerusform>
            <numerusform>%n Ketten fehlgeschlagen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>project, %n chain(s) failed</source>
        <translation>
            <numerusform>Projekt, %n Kette fehlgeschlagen</numerusform>
            <numerusform>Projekt, %n Ketten fehlgeschlagen</numerusform>
        </translation>
    </message>
    <message>
        <source>project</source>
        <translation>Projekt</translation>
    </message>
    <message>
        <source>chain, %1</source>
        <translation>Kette, %1</translation>
    </message>
    <message>
        <source>Connections</source>
        <translation>Verbindungen</translation>
    </message>
    <message numerus="yes">
        <source>Remote schedulers and databases: %n connection(s)</source>
        <translation>
            <numerusform>Entfernte Planer und Datenbanken: %n Verbindung</numerusform>
            <numerusform>Entfernte Planer und Datenbanken: %n Verbindungen</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: checking…</source>
        <translation>%1: wird geprüft…</translation>
    </message>
    <message>
        <source>connection, checking</source>
        <translation>Verbindung, wird geprüft</translation>
    </message>
    <message>
        <source>connection, connected: %1</source>
        <translation>Verbindung, verbunden: %1</translation>
    </message>
    <message>
        <source>connection, read-only: %1</source>
        <translation>Verbindung, nur lesend: %1</translation>
    </message>
    <message>
        <source>connection, failed: %1</source>
        <translation>Verbindung, fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>pg_timetable chain on &apos;%1&apos;</source>
        <translation>pg_timetable-Kette auf &apos;%1&apos;</translation>
    </message>
    <message>
        <source>pg_timetable chain</source>
        <translation>pg_timetable-Kette</translation>
    </message>
    <message numerus="yes">
        <source>%n missed run(s) wait</source>
        <translation>
            <numerusform>%n versäumter Lauf wartet</numerusform>
            <numerusform>%n versäumte Läufe warten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n missed</source>
        <translation>
            <numerusform>%1 — %n versäumt</numerusform>
            <numerusform>%1 — %n versäumt</numerusform>
        </translation>
    </message>
    <message>
        <source>chain, %1, %2</source>
        <translation>Kette, %1, %2</translation>
    </message>
</context>
<context>
    <name>hg::RemoteAccessBox</name>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>PEM files (*.pem *.crt *.key);;All files (*)</source>
        <translation>PEM-Dateien (*.pem *.crt *.key);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Remote &amp;access: serve the local API (REST, /metrics, webhooks)</source>
        <translation>Fern&amp;zugriff: die lokale API bereitstellen (REST, /metrics, Webhooks)</translation>
    </message>
    <message>
        <source>Allow plain HTTP on an address other machines reach (tokens cross the network unencrypted)</source>
        <translation>Unverschlüsseltes HTTP auf einer Adresse erlauben, die andere Rechner erreichen (Tokens gehen unverschlüsselt über das Netz)</translation>
    </message>
    <message>
        <source>Programs on this computer may read /metrics without a token</source>
        <translation>Programme auf diesem Rechner dürfen /metrics ohne Token lesen</translation>
    </message>
    <message>
        <source>ADDRESS:PORT. 127.0.0.1 is this computer only; 0.0.0.0 or a network address lets other machines in.</source>
        <translation>ADRESSE:PORT. 127.0.0.1 ist nur dieser Rechner; 0.0.0.0 oder eine Netzwerkadresse lässt andere Rechner herein.</translation>
    </message>
    <message>
        <source>none: plain HTTP</source>
        <translation>keins: unverschlüsseltes HTTP</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>Scripts call it with a token: hourglass token add NAME --role read|operate|admin. It takes effect when you press OK.</source>
        <translation>Skripte rufen sie mit einem Token auf: hourglass token add NAME --role read|operate|admin. Es gilt, sobald Sie OK drücken.</translation>
    </message>
    <message>
        <source>&amp;Listen on:</source>
        <translation>&amp;Lauschen auf:</translation>
    </message>
    <message>
        <source>HTTPS &amp;certificate:</source>
        <translation>HTTPS-&amp;Zertifikat:</translation>
    </message>
    <message>
        <source>Certificate</source>
        <translation>Zertifikat</translation>
    </message>
    <message>
        <source>HTTPS &amp;key:</source>
        <translation>HTTPS-&amp;Schlüssel:</translation>
    </message>
    <message>
        <source>Private key</source>
        <translation>Privater Schlüssel</translation>
    </message>
    <message>
        <source>HTTPS needs both a certificate and its key.</source>
        <translation>HTTPS braucht ein Zertifikat und seinen Schlüssel.</translation>
    </message>
    <message>
        <source>%1 is reachable from other machines: give a certificate and key for HTTPS, or allow plain HTTP.</source>
        <translation>%1 ist von anderen Rechnern erreichbar: Zertifikat und Schlüssel für HTTPS angeben oder unverschlüsseltes HTTP erlauben.</translation>
    </message>
</context>
<context>
    <name>hg::RemoteChainCanvas</name>
    <message>
        <source>Chain canvas</source>
        <translation>Ketten-Zeichenfläche</translation>
    </message>
    <message>
        <source>highest</source>
        <translation>höchste</translation>
    </message>
    <message>
        <source>high</source>
        <translation>hoch</translation>
    </message>
    <message>
        <source>medium</source>
        <translation>mittel</translation>
    </message>
    <message>
        <source>low</source>
        <translation>niedrig</translation>
    </message>
    <message>
        <source>lowest</source>
        <translation>niedrigste</translation>
    </message>
    <message>
        <source>priority %1</source>
        <translation>Priorität %1</translation>
    </message>
    <message numerus="yes">
        <source>%n retries</source>
        <translation>
            <numerusform>%n Wiederholung</numerusform>
            <numerusform>%n Wiederholungen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>every %n min</source>
        <translation>
            <numerusform>alle %n Min.</numerusform>
            <numerusform>alle %n Min.</numerusform>
        </translation>
    </message>
    <message>
        <source>no retries</source>
        <translation>keine Wiederholungen</translation>
    </message>
    <message numerus="yes">
        <source>timeout %n min</source>
        <translation>
            <numerusform>Zeitlimit %n Min.</numerusform>
            <numerusform>Zeitlimit %n Min.</numerusform>
        </translation>
    </message>
    <message>
        <source>no timeout</source>
        <translation>kein Zeitlimit</translation>
    </message>
    <message>
        <source>%1 (%2)
%3
%4
priority: %5
worker group: %6</source>
        <translation>%1 (%2)
%3
%4
Priorität: %5
Worker-Gruppe: %6</translation>
    </message>
    <message>
        <source>if true</source>
        <translation>wenn wahr</translation>
    </message>
    <message>
        <source>if false</source>
        <translation>wenn falsch</translation>
    </message>
    <message>
        <source>judge</source>
        <translation>Prüfung</translation>
    </message>
    <message>
        <source>delay</source>
        <translation>Verzögerung</translation>
    </message>
    <message>
        <source>condition %1</source>
        <translation>Bedingung %1</translation>
    </message>
    <message>
        <source>%1 → %2: runs after it</source>
        <translation>%1 → %2: läuft danach</translation>
    </message>
    <message>
        <source>%1 → %2: %3</source>
        <translation>%1 → %2: %3</translation>
    </message>
</context>
<context>
    <name>hg::RemoteDatabase</name>
    <message>
        <source>host &apos;%1&apos; not found (DNS)</source>
        <translation>Host &apos;%1&apos; nicht gefunden (DNS)</translation>
    </message>
    <message>
        <source>%1 refused the connection: no server listens there</source>
        <translation>%1 hat die Verbindung abgelehnt: dort lauscht kein Server</translation>
    </message>
    <message>
        <source>%1 is unreachable: no answer within %2 s</source>
        <translation>%1 ist nicht erreichbar: keine Antwort innerhalb von %2 s</translation>
    </message>
    <message>
        <source>authentication failed for user &apos;%1&apos; at %2 (the password comes from the keychain, ~/.pgpass or ~/.my.cnf)</source>
        <translation>Anmeldung für Benutzer &apos;%1&apos; an %2 fehlgeschlagen (das Passwort kommt aus dem Schlüsselbund, ~/.pgpass oder ~/.my.cnf)</translation>
    </message>
    <message>
        <source>database &apos;%1&apos; does not exist at %2</source>
        <translation>Datenbank &apos;%1&apos; existiert nicht auf %2</translation>
    </message>
    <message>
        <source>cannot connect to %1</source>
        <translation>keine Verbindung zu %1 möglich</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: %2 (%3)</source>
        <translation>Remote &apos;%1&apos;: %2 (%3)</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: %2: %3</source>
        <translation>Remote &apos;%1&apos;: %2: %3</translation>
    </message>
    <message>
        <source>read the tables&apos; columns</source>
        <translation>Lesen der Spalten der Tabellen</translation>
    </message>
    <message>
        <source>read the indexes of %1</source>
        <translation>Lesen der Indizes von %1</translation>
    </message>
</context>
<context>
    <name>hg::RemoteInfo</name>
    <message>
        <source>remote &apos;%1&apos;: %2</source>
        <translation>Remote &apos;%1&apos;: %2</translation>
    </message>
    <message>
        <source>remote &apos;%1&apos;: %2 on %3</source>
        <translation>Remote &apos;%1&apos;: %2 auf %3</translation>
    </message>
    <message>
        <source>, time zone %1</source>
        <translation>, Zeitzone %1</translation>
    </message>
    <message>
        <source>, read-only</source>
        <translation>, nur lesbar</translation>
    </message>
    <message>
        <source>, read-write</source>
        <translation>, les- und schreibbar</translation>
    </message>
</context>
<context>
    <name>hg::RemoteProbe</name>
    <message>
        <source>read the version</source>
        <translation>die Version lesen</translation>
    </message>
</context>
<context>
    <name>hg::RemovedRuns</name>
    <message>
        <source>prune the ends of removed runs</source>
        <translation>die Enden entfernter Läufe aufräumen</translation>
    </message>
    <message>
        <source>keep the ends of removed runs</source>
        <translation>die Enden entfernter Läufe bewahren</translation>
    </message>
    <message>
        <source>read the end of a removed run</source>
        <translation>das Ende eines entfernten Laufs lesen</translation>
    </message>
</context>
<context>
    <name>hg::RetentionDialog</name>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source> runs</source>
        <translation> Läufe</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>unbegrenzt</translation>
    </message>
    <message>
        <source> days</source>
        <translation> Tage</translation>
    </message>
    <message>
        <source>as other runs</source>
        <translation>wie andere Läufe</translation>
    </message>
    <message>
        <source>Keep run history</source>
        <translation>Laufverlauf aufbewahren</translation>
    </message>
    <message>
        <source>Finished runs past these limits are removed with their log. Running and queued runs always stay.</source>
        <translation>Beendete Läufe jenseits dieser Grenzen werden samt Protokoll entfernt. Laufende und eingereihte Läufe bleiben immer.</translation>
    </message>
    <message>
        <source>Keep the &amp;newest:</source>
        <translation>Die &amp;neuesten behalten:</translation>
    </message>
    <message>
        <source>Keep runs of the &amp;last:</source>
        <translation>Läufe der &amp;letzten behalten:</translation>
    </message>
    <message>
        <source>Failed runs, keep the ne&amp;west:</source>
        <translation>Fehlgeschlagene Läufe, die ne&amp;uesten behalten:</translation>
    </message>
    <message>
        <source>Failed runs, keep those of the l&amp;ast:</source>
        <translation>Fehlgeschlagene Läufe, die der le&amp;tzten behalten:</translation>
    </message>
    <message>
        <source>History: all runs kept</source>
        <translation>Verlauf: alle Läufe bleiben</translation>
    </message>
    <message numerus="yes">
        <source>newest %n run(s)</source>
        <translation>
            <numerusform>neuester %n Lauf</numerusform>
            <numerusform>neueste %n Läufe</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>last %n day(s)</source>
        <translation>
            <numerusform>letzter %n Tag</numerusform>
            <numerusform>letzte %n Tage</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>newest %n</source>
        <translation>
            <numerusform>neuester %n</numerusform>
            <numerusform>neueste %n</numerusform>
        </translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>History: %1</source>
        <translation>Verlauf: %1</translation>
    </message>
</context>
<context>
    <name>hg::RouteDialog</name>
    <message>
        <source>Add a notification route</source>
        <translation>Benachrichtigungsroute hinzufügen</translation>
    </message>
    <message>
        <source>the default e-mail channel (whichever it is)</source>
        <translation>der Standard-E-Mail-Kanal (welcher es auch ist)</translation>
    </message>
    <message>
        <source>&amp;recovery (the first success after one)</source>
        <translation>&amp;Erholung (der erste Erfolg danach)</translation>
    </message>
    <message>
        <source>&amp;success</source>
        <translation>Erf&amp;olg</translation>
    </message>
    <message>
        <source>&amp;output (it printed anything, as cron mails)</source>
        <translation>A&amp;usgabe (sie gab etwas aus, wie cron mailt)</translation>
    </message>
    <message>
        <source>&amp;missed fire times</source>
        <translation>&amp;verpasste Auslösezeiten</translation>
    </message>
    <message>
        <source>the channel&apos;s own recipients</source>
        <translation>die eigenen Empfänger des Kanals</translation>
    </message>
    <message>
        <source>&amp;For:</source>
        <translation>Fü&amp;r:</translation>
    </message>
    <message>
        <source>&amp;Channel:</source>
        <translation>&amp;Kanal:</translation>
    </message>
    <message>
        <source>On:</source>
        <translation>Bei:</translation>
    </message>
    <message>
        <source>&amp;To:</source>
        <translation>&amp;An:</translation>
    </message>
    <message>
        <source>A chain&apos;s own routes replace its project&apos;s; a project&apos;s replace the ones for every chain.</source>
        <translation>Die eigenen Routen einer Kette ersetzen die ihres Projekts; die eines Projekts ersetzen die für jede Kette.</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is no chain or project here.</source>
        <translation>„%1“ ist hier keine Kette und kein Projekt.</translation>
    </message>
    <message>
        <source>Choose one event at least.</source>
        <translation>Mindestens ein Ereignis wählen.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an e-mail address.</source>
        <translation>„%1“ ist keine E-Mail-Adresse.</translation>
    </message>
    <message>
        <source>fail&amp;ure</source>
        <translation>&amp;Fehlschlag</translation>
    </message>
    <message>
        <source>a&amp;lert (late, too long, a deadline)</source>
        <translation>A&amp;larm (verspätet, zu lang, eine Frist)</translation>
    </message>
    <message>
        <source>%1 recipients; %2 at most.</source>
        <translation>%1 Empfänger; höchstens %2.</translation>
    </message>
    <message>
        <source>&amp;engine events (for every chain: a lease lost, the store away)</source>
        <translation>E&amp;ngine-Ereignisse (für jede Kette: Lease verloren, Speicher weg)</translation>
    </message>
</context>
<context>
    <name>hg::RunControl</name>
    <message>
        <source>run %1 has already ended (%2)</source>
        <translation>Lauf %1 ist bereits beendet (%2)</translation>
    </message>
    <message>
        <source>run %1 has not ended yet (%2)</source>
        <translation>Lauf %1 ist noch nicht beendet (%2)</translation>
    </message>
    <message>
        <source>run %1 has no failed or unrun task to run again</source>
        <translation>Lauf %1 hat keine fehlgeschlagene oder nicht ausgeführte Aufgabe, die erneut ausgeführt werden könnte</translation>
    </message>
</context>
<context>
    <name>hg::RunExecution</name>
    <message>
        <source>stopped: %1 failed, and the chain ends on a failure</source>
        <translation>angehalten: %1 ist fehlgeschlagen, und die Kette endet bei einem Fehler</translation>
    </message>
</context>
<context>
    <name>hg::RunGanttChart</name>
    <message>
        <source>Run timeline</source>
        <translation>Zeitleiste des Laufs</translation>
    </message>
    <message>
        <source>A row per task, a bar per attempt; the Attempts tab lists them</source>
        <translation>Eine Zeile pro Aufgabe, ein Balken pro Versuch; der Reiter „Versuche“ listet sie auf</translation>
    </message>
    <message>
        <source>No task has started in this run yet.</source>
        <translation>In diesem Lauf hat noch keine Aufgabe begonnen.</translation>
    </message>
</context>
<context>
    <name>hg::RunOwnership</name>
    <message>
        <source>claim queued runs</source>
        <translation>Übernehmen wartender Läufe</translation>
    </message>
    <message>
        <source>claim run %1</source>
        <translation>Übernehmen von Lauf %1</translation>
    </message>
    <message>
        <source>own run %1</source>
        <translation>Zuordnen von Lauf %1</translation>
    </message>
    <message>
        <source>check the claim on run %1</source>
        <translation>Prüfen des Anspruchs auf Lauf %1</translation>
    </message>
    <message>
        <source>run %1 no longer exists</source>
        <translation>Lauf %1 existiert nicht mehr</translation>
    </message>
    <message>
        <source>run %1 was taken over by another engine</source>
        <translation>Lauf %1 wurde von einer anderen Engine übernommen</translation>
    </message>
    <message>
        <source>count runs of other engines</source>
        <translation>Zählen der Läufe anderer Engines</translation>
    </message>
    <message>
        <source>lock admission</source>
        <translation>Sperren der Zulassung</translation>
    </message>
    <message>
        <source>take over expired engine sessions</source>
        <translation>Übernehmen abgelaufener Engine-Sitzungen</translation>
    </message>
    <message>
        <source>release queued runs of gone engines</source>
        <translation>Freigeben wartender Läufe beendeter Engines</translation>
    </message>
    <message>
        <source>find runs of gone engines</source>
        <translation>Suchen der Läufe beendeter Engines</translation>
    </message>
    <message>
        <source>queue run %1 again</source>
        <translation>erneutes Einreihen von Lauf %1</translation>
    </message>
    <message>
        <source>take over the session of a dead engine</source>
        <translation>Sitzung einer beendeten Engine übernehmen</translation>
    </message>
</context>
<context>
    <name>hg::RunRecorder</name>
    <message>
        <source>the store cannot be reached</source>
        <translation>der Datenspeicher ist nicht erreichbar</translation>
    </message>
    <message>
        <source>unknown task run %1</source>
        <translation>unbekannter Aufgabenversuch %1</translation>
    </message>
    <message>
        <source>unknown run %1</source>
        <translation>unbekannter Lauf %1</translation>
    </message>
    <message>
        <source>attempt %1 of task %2 in run %3 started already</source>
        <translation>Versuch %1 der Aufgabe %2 in Lauf %3 hat bereits begonnen</translation>
    </message>
</context>
<context>
    <name>hg::RunRepository</name>
    <message>
        <source>insert scheduled run</source>
        <translation>Eintragen des geplanten Laufs</translation>
    </message>
    <message>
        <source>read scheduled run</source>
        <translation>Lesen des geplanten Laufs</translation>
    </message>
    <message>
        <source>scheduled run vanished</source>
        <translation>der geplante Lauf ist verschwunden</translation>
    </message>
    <message>
        <source>insert run</source>
        <translation>Eintragen des Laufs</translation>
    </message>
    <message>
        <source>update run %1</source>
        <translation>Aktualisieren von Lauf %1</translation>
    </message>
    <message>
        <source>read each chain&apos;s newest run</source>
        <translation>Lesen des neuesten Laufs jeder Kette</translation>
    </message>
    <message>
        <source>read each chain&apos;s recent runs</source>
        <translation>Lesen der letzten Läufe jeder Kette</translation>
    </message>
    <message>
        <source>read a chain&apos;s recent runs</source>
        <translation>Lesen der letzten Läufe einer Kette</translation>
    </message>
    <message>
        <source>read a run&apos;s failure</source>
        <translation>Lesen des Fehlschlags eines Laufs</translation>
    </message>
    <message>
        <source>list runs</source>
        <translation>Auflisten der Läufe</translation>
    </message>
    <message>
        <source>read run</source>
        <translation>Lesen des Laufs</translation>
    </message>
    <message>
        <source>unknown run %1</source>
        <translation>unbekannter Lauf %1</translation>
    </message>
    <message>
        <source>count active runs</source>
        <translation>Zählen der aktiven Läufe</translation>
    </message>
    <message>
        <source>read schedule history</source>
        <translation>Lesen des Zeitplanverlaufs</translation>
    </message>
    <message>
        <source>list runs by state</source>
        <translation>Auflisten der Läufe nach Zustand</translation>
    </message>
    <message>
        <source>read runs</source>
        <translation>Lesen der Läufe</translation>
    </message>
</context>
<context>
    <name>hg::RunRetention</name>
    <message>
        <source>find runs past their retention</source>
        <translation>Suchen der Läufe nach Ablauf ihrer Aufbewahrung</translation>
    </message>
    <message>
        <source>take the retention lock</source>
        <translation>Sperren der Aufbewahrung</translation>
    </message>
    <message>
        <source>remove runs past their retention</source>
        <translation>Entfernen der Läufe nach Ablauf ihrer Aufbewahrung</translation>
    </message>
    <message>
        <source>find the chains that keep a limited history</source>
        <translation>die Ketten mit begrenztem Verlauf finden</translation>
    </message>
</context>
<context>
    <name>hg::RunSummaryText</name>
    <message>
        <source>No runs yet</source>
        <translation>Noch keine Läufe</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s): %1</source>
        <translation>
            <numerusform>%n Lauf: %1</numerusform>
            <numerusform>%n Läufe: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>; median %1</source>
        <translation>; Median %1</translation>
    </message>
</context>
<context>
    <name>hg::RunWriteBatch</name>
    <message>
        <source>update runs</source>
        <translation>Aktualisieren der Läufe</translation>
    </message>
    <message>
        <source>add task runs</source>
        <translation>Hinzufügen der Aufgabenversuche</translation>
    </message>
    <message>
        <source>reserve task run ids</source>
        <translation>Reservieren von IDs für Aufgabenversuche</translation>
    </message>
    <message>
        <source>update task runs</source>
        <translation>Aktualisieren der Aufgabenversuche</translation>
    </message>
</context>
<context>
    <name>hg::RunsInFlight</name>
    <message>
        <source>read the runs in flight</source>
        <translation>laufende Ausführungen lesen</translation>
    </message>
    <message>
        <source>lock %1</source>
        <translation>%1 sperren</translation>
    </message>
    <message>
        <source>%1 has runs that have not ended (%2): stop them first (hourglass stop RUN_ID) or wait for them to end</source>
        <translation>%1 hat Ausführungen, die noch nicht beendet sind (%2): stoppen Sie sie zuerst (hourglass stop RUN_ID) oder warten Sie, bis sie enden</translation>
    </message>
</context>
<context>
    <name>hg::RunsModel</name>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Chain</source>
        <translation>Kette</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Trigger</source>
        <translation>Auslöser</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>stopped before any task started</source>
        <translation>angehalten, bevor eine Aufgabe begann</translation>
    </message>
    <message>
        <source>Scheduled</source>
        <translation>Geplant</translation>
    </message>
</context>
<context>
    <name>hg::RunsView</name>
    <message>
        <source>Only the selected chain</source>
        <translation>Nur die ausgewählte Kette</translation>
    </message>
    <message>
        <source>All states</source>
        <translation>Alle Zustände</translation>
    </message>
    <message>
        <source>All triggers</source>
        <translation>Alle Auslöser</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stoppen</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausieren</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Rerun</source>
        <translation>Erneut ausführen</translation>
    </message>
    <message>
        <source>Rerun failed</source>
        <translation>Fehlgeschlagene erneut ausführen</translation>
    </message>
    <message>
        <source>Show only the runs of the chain selected in the tree; off: every chain&apos;s runs</source>
        <translation>Nur die Läufe der im Baum ausgewählten Kette anzeigen; aus: die Läufe aller Ketten</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <source>Task attempts</source>
        <translation>Aufgabenversuche</translation>
    </message>
    <message>
        <source>Filter by state</source>
        <translation>Nach Zustand filtern</translation>
    </message>
    <message>
        <source>Filter by trigger</source>
        <translation>Nach Auslöser filtern</translation>
    </message>
    <message>
        <source>Select an attempt to see only its log; Esc shows the whole run&apos;s log again.</source>
        <translation>Einen Versuch auswählen, um nur dessen Protokoll zu sehen; Esc zeigt wieder das Protokoll des ganzen Laufs.</translation>
    </message>
    <message>
        <source>Selected run</source>
        <translation>Ausgewählter Lauf</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>Zeitleiste</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Run %1: sent to the engine.</source>
        <translation>Lauf %1: an die Engine gesendet.</translation>
    </message>
    <message>
        <source>Run %1 queued: a rerun of run %2.</source>
        <translation>Lauf %1 eingereiht: eine Wiederholung von Lauf %2.</translation>
    </message>
    <message>
        <source>&amp;State:</source>
        <translation>&amp;Zustand:</translation>
    </message>
    <message>
        <source>Duration of the last %1 runs</source>
        <translation>Dauer der letzten %1 Läufe</translation>
    </message>
    <message>
        <source>Every run, newest first: its chain, state, trigger, times, duration and why it failed</source>
        <translation>Jeder Lauf, der neueste zuerst: Kette, Zustand, Auslöser, Zeiten, Dauer und warum er fehlschlug</translation>
    </message>
    <message>
        <source>Show only runs in this state</source>
        <translation>Nur Läufe in diesem Zustand zeigen</translation>
    </message>
    <message>
        <source>Show only runs started this way</source>
        <translation>Nur so gestartete Läufe zeigen</translation>
    </message>
    <message>
        <source>The selected run&apos;s timeline and its attempts</source>
        <translation>Zeitleiste und Versuche des ausgewählten Laufs</translation>
    </message>
    <message>
        <source>A bar per attempt of each task, on the run&apos;s time line</source>
        <translation>Ein Balken je Versuch jeder Aufgabe, auf der Zeitleiste des Laufs</translation>
    </message>
    <message>
        <source>Every attempt of every task, with its exit code</source>
        <translation>Jeder Versuch jeder Aufgabe, mit seinem Exit-Code</translation>
    </message>
    <message>
        <source>&amp;Trigger:</source>
        <translation>A&amp;uslöser:</translation>
    </message>
</context>
<context>
    <name>hg::ScheduleDialog</name>
    <message>
        <source>From</source>
        <translation>Ab</translation>
    </message>
    <message>
        <source>Until</source>
        <translation>Bis</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Aktiviert</translation>
    </message>
    <message>
        <source>Edit schedule</source>
        <translation>Zeitplan bearbeiten</translation>
    </message>
    <message>
        <source>New schedule</source>
        <translation>Neuer Zeitplan</translation>
    </message>
    <message>
        <source>*/5 * * * *  ·  0 30 7 * * MON-FRI  ·  @every 90s  ·  2026-12-24T18:00:00</source>
        <translation>*/5 * * * *  ·  0 30 7 * * MON-FRI  ·  @every 90s  ·  2026-12-24T18:00:00</translation>
    </message>
    <message>
        <source>Expression</source>
        <translation>Ausdruck</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>Meaning</source>
        <translation>Bedeutung</translation>
    </message>
    <message>
        <source>Next fire times</source>
        <translation>Nächste Auslösezeiten</translation>
    </message>
    <message>
        <source>Detect</source>
        <translation>Automatisch erkennen</translation>
    </message>
    <message>
        <source>Unix (5 fields)</source>
        <translation>Unix (5 Felder)</translation>
    </message>
    <message>
        <source>With seconds (6 fields)</source>
        <translation>Mit Sekunden (6 Felder)</translation>
    </message>
    <message>
        <source>Quartz</source>
        <translation>Quartz</translation>
    </message>
    <message>
        <source>pg_timetable</source>
        <translation>pg_timetable</translation>
    </message>
    <message>
        <source>(default: %1)</source>
        <translation>(Standard: %1)</translation>
    </message>
    <message>
        <source>Skip what was missed</source>
        <translation>Verpasstes überspringen</translation>
    </message>
    <message>
        <source>Run once for what was missed</source>
        <translation>Verpasstes einmal nachholen</translation>
    </message>
    <message>
        <source>Run every missed time</source>
        <translation>Jeden verpassten Zeitpunkt nachholen</translation>
    </message>
    <message>
        <source> h</source>
        <translation> h</translation>
    </message>
    <message>
        <source>within</source>
        <translation>innerhalb von</translation>
    </message>
    <message>
        <source>Expression:</source>
        <translation>Ausdruck:</translation>
    </message>
    <message>
        <source>&amp;Dialect:</source>
        <translation>&amp;Dialekt:</translation>
    </message>
    <message>
        <source>&amp;Time zone:</source>
        <translation>&amp;Zeitzone:</translation>
    </message>
    <message>
        <source>Meaning:</source>
        <translation>Bedeutung:</translation>
    </message>
    <message>
        <source>Next 10:</source>
        <translation>Nächste 10:</translation>
    </message>
    <message>
        <source>Missed fires:</source>
        <translation>Verpasste Auslösungen:</translation>
    </message>
    <message>
        <source>Active:</source>
        <translation>Aktiv:</translation>
    </message>
    <message>
        <source>Builder</source>
        <translation>Baukasten</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>Every</source>
        <translation>Alle</translation>
    </message>
    <message>
        <source>Daily at</source>
        <translation>Täglich um</translation>
    </message>
    <message>
        <source>Weekly at</source>
        <translation>Wöchentlich um</translation>
    </message>
    <message>
        <source>Sun</source>
        <translation>So</translation>
    </message>
    <message>
        <source>Mon</source>
        <translation>Mo</translation>
    </message>
    <message>
        <source>Tue</source>
        <translation>Di</translation>
    </message>
    <message>
        <source>Wed</source>
        <translation>Mi</translation>
    </message>
    <message>
        <source>Thu</source>
        <translation>Do</translation>
    </message>
    <message>
        <source>Fri</source>
        <translation>Fr</translation>
    </message>
    <message>
        <source>Sat</source>
        <translation>Sa</translation>
    </message>
    <message>
        <source>Each button writes the expression; edit it further on the left.</source>
        <translation>Jede Schaltfläche schreibt den Ausdruck; links lässt er sich weiter bearbeiten.</translation>
    </message>
    <message>
        <source>Type an expression, or let the builder on the right write one.</source>
        <translation>Einen Ausdruck eingeben oder ihn vom Baukasten rechts schreiben lassen.</translation>
    </message>
    <message>
        <source>(depends on when the engine starts or the last run ends)</source>
        <translation>(hängt davon ab, wann die Engine startet oder der letzte Lauf endet)</translation>
    </message>
    <message>
        <source>(no more fire times)</source>
        <translation>(keine weiteren Auslösezeiten)</translation>
    </message>
    <message>
        <source>Daylight saving time</source>
        <translation>Sommerzeit</translation>
    </message>
    <message>
        <source>A time the clocks skip runs right after; a repeated time runs once</source>
        <translation>Eine übersprungene Zeit läuft direkt danach; eine doppelte Zeit läuft einmal</translation>
    </message>
    <message>
        <source>A time the clocks skip is skipped; a repeated time runs once</source>
        <translation>Eine übersprungene Zeit entfällt; eine doppelte Zeit läuft einmal</translation>
    </message>
    <message>
        <source>A time the clocks skip runs right after; a repeated time runs twice</source>
        <translation>Eine übersprungene Zeit läuft direkt danach; eine doppelte Zeit läuft zweimal</translation>
    </message>
    <message>
        <source>A time the clocks skip is skipped; a repeated time runs twice</source>
        <translation>Eine übersprungene Zeit entfällt; eine doppelte Zeit läuft zweimal</translation>
    </message>
    <message>
        <source>As cronie does it</source>
        <translation>Wie cronie es tut</translation>
    </message>
    <message>
        <source>What a change to or from daylight saving time does to this schedule. cronie: a job whose minute or hour starts with * skips the times the clocks skip and runs again in a repeated hour; any other job runs the skipped times right after and a repeated time once.</source>
        <translation>Was eine Umstellung von oder auf Sommerzeit mit diesem Zeitplan macht. cronie: ein Job, dessen Minute oder Stunde mit * beginnt, überspringt die übersprungenen Zeiten und läuft in einer doppelten Stunde erneut; jeder andere Job führt die übersprungenen Zeiten direkt danach aus und eine doppelte Zeit einmal.</translation>
    </message>
    <message>
        <source>Calendar</source>
        <translation>Kalender</translation>
    </message>
    <message>
        <source>A calendar&apos;s days (holidays, weekends) this schedule never fires on, or the only days it fires on. hourglass calendar add makes one.</source>
        <translation>Die Tage eines Kalenders (Feiertage, Wochenenden), an denen dieser Zeitplan nie auslöst, oder die einzigen Tage, an denen er auslöst. hourglass calendar add legt einen an.</translation>
    </message>
    <message>
        <source>(every day)</source>
        <translation>(jeden Tag)</translation>
    </message>
    <message>
        <source>&amp;Clock changes:</source>
        <translation>&amp;Zeitumstellung:</translation>
    </message>
    <message>
        <source>Ca&amp;lendar:</source>
        <translation>Ka&amp;lender:</translation>
    </message>
    <message>
        <source>Not run: calendar &apos;%1&apos; excludes this day</source>
        <translation>Läuft nicht: Kalender „%1“ schließt diesen Tag aus</translation>
    </message>
    <message>
        <source>Not run: this day is not in calendar &apos;%1&apos;</source>
        <translation>Läuft nicht: dieser Tag steht nicht im Kalender „%1“</translation>
    </message>
    <message>
        <source>Not on the days of %1</source>
        <translation>Nicht an den Tagen von %1</translation>
    </message>
    <message>
        <source>Only on the days of %1</source>
        <translation>Nur an den Tagen von %1</translation>
    </message>
    <message>
        <source>Ask me (the missed-runs inbox)</source>
        <translation>Mich fragen (Eingang versäumter Läufe)</translation>
    </message>
</context>
<context>
    <name>hg::SchedulePlan</name>
    <message>
        <source>schedule %1: unknown time zone &apos;%2&apos;</source>
        <translation>Zeitplan %1: unbekannte Zeitzone „%2“</translation>
    </message>
    <message>
        <source>schedule %1: &apos;%2&apos; is not an ISO 8601 time</source>
        <translation>Zeitplan %1: „%2“ ist keine ISO-8601-Zeit</translation>
    </message>
    <message>
        <source>schedule %1: %2</source>
        <translation>Zeitplan %1: %2</translation>
    </message>
</context>
<context>
    <name>hg::ScheduleRepository</name>
    <message>
        <source>add schedule</source>
        <translation>Hinzufügen des Zeitplans</translation>
    </message>
    <message>
        <source>unknown chain id %1</source>
        <translation>unbekannte Ketten-ID %1</translation>
    </message>
    <message>
        <source>update schedule</source>
        <translation>Ändern des Zeitplans</translation>
    </message>
    <message>
        <source>unknown schedule %1</source>
        <translation>unbekannter Zeitplan %1</translation>
    </message>
    <message>
        <source>read schedule</source>
        <translation>Lesen des Zeitplans</translation>
    </message>
    <message>
        <source>list schedules</source>
        <translation>Auflisten der Zeitpläne</translation>
    </message>
    <message>
        <source>remove schedule</source>
        <translation>Entfernen des Zeitplans</translation>
    </message>
    <message>
        <source>unknown chain id %1 or calendar id %2</source>
        <translation>unbekannte Ketten-ID %1 oder Kalender-ID %2</translation>
    </message>
</context>
<context>
    <name>hg::ScheduleValidator</name>
    <message>
        <source>schedule expression is empty</source>
        <translation>der Ausdruck des Zeitplans ist leer</translation>
    </message>
    <message>
        <source>unknown time zone &apos;%1&apos;</source>
        <translation>unbekannte Zeitzone „%1“</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an ISO 8601 date and time</source>
        <translation>„%1“ ist kein ISO-8601-Datum mit Uhrzeit</translation>
    </message>
    <message>
        <source>misfire window must not be negative</source>
        <translation>das Zeitfenster für verpasste Auslösungen darf nicht negativ sein</translation>
    </message>
    <message>
        <source>active window ends before it starts</source>
        <translation>der aktive Zeitraum endet, bevor er beginnt</translation>
    </message>
    <message>
        <source>the cronie DST rule needs fire times on whole minutes, as cron has; &apos;%1&apos; fires at other seconds</source>
        <translation>die cronie-Sommerzeitregel braucht Auslösezeiten zu vollen Minuten, wie cron sie hat; „%1“ löst zu anderen Sekunden aus</translation>
    </message>
</context>
<context>
    <name>hg::SchedulesModel</name>
    <message>
        <source>Expression</source>
        <translation>Ausdruck</translation>
    </message>
    <message>
        <source>Meaning</source>
        <translation>Bedeutung</translation>
    </message>
    <message>
        <source>Zone</source>
        <translation>Zeitzone</translation>
    </message>
    <message>
        <source>Next fire</source>
        <translation>Nächste Auslösung</translation>
    </message>
    <message>
        <source>Once, at %1</source>
        <translation>Einmalig, %1</translation>
    </message>
    <message>
        <source>When the engine starts</source>
        <translation>Beim Start der Engine</translation>
    </message>
    <message>
        <source>default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>%1, not on the days of %2</source>
        <translation>%1, nicht an den Tagen von %2</translation>
    </message>
    <message>
        <source>%1, only on the days of %2</source>
        <translation>%1, nur an den Tagen von %2</translation>
    </message>
    <message>
        <source>%1; clock changes as cronie</source>
        <translation>%1; Zeitumstellung wie cronie</translation>
    </message>
    <message>
        <source>%1; clock changes: %2</source>
        <translation>%1; Zeitumstellung: %2</translation>
    </message>
    <message>
        <source>The chain is switched off: nothing fires</source>
        <translation>Die Kette ist ausgeschaltet: nichts wird ausgelöst</translation>
    </message>
    <message>
        <source>On</source>
        <translation>An</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>hg::SendMailExecutor</name>
    <message>
        <source>the message was not sent through %1: %2</source>
        <translation>die Nachricht wurde nicht über %1 gesendet: %2</translation>
    </message>
    <message numerus="yes">
        <source>sent &apos;%1&apos; to %n recipient(s) through %2: %3</source>
        <translation>
            <numerusform>„%1“ an %n Empfänger über %2 gesendet: %3</numerusform>
            <numerusform>„%1“ an %n Empfänger über %2 gesendet: %3</numerusform>
        </translation>
    </message>
    <message>
        <source>this engine cannot send mail (it was built without it)</source>
        <translation>diese Engine kann keine E-Mail senden (sie wurde ohne gebaut)</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>Zeit überschritten</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
</context>
<context>
    <name>hg::SendMailTask</name>
    <message>
        <source>attachment %1: %2</source>
        <translation>Anhang %1: %2</translation>
    </message>
    <message>
        <source>attachment %1 is not a file</source>
        <translation>Anhang %1 ist keine Datei</translation>
    </message>
    <message>
        <source>the attachments come to more than %L1 MB</source>
        <translation>die Anhänge sind zusammen größer als %L1 MB</translation>
    </message>
    <message>
        <source>its password (%1) cannot be read: %2</source>
        <translation>sein Passwort (%1) kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>its server names a user but no password is kept (task add --password-stdin)</source>
        <translation>sein Server nennt einen Benutzer, aber es ist kein Passwort verwahrt (task add --password-stdin)</translation>
    </message>
</context>
<context>
    <name>hg::SettingsDialog</name>
    <message>
        <source>Show a notification when a run ends, as each chain asks</source>
        <translation>Benachrichtigung anzeigen, wenn ein Lauf endet (wie für jede Kette eingestellt)</translation>
    </message>
    <message>
        <source>Closing the window keeps Hourglass running in the tray</source>
        <translation>Beim Schließen des Fensters läuft Hourglass im Infobereich weiter</translation>
    </message>
    <message>
        <source>Start Hourglass when I log in</source>
        <translation>Hourglass bei der Anmeldung starten</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>automatic (%1)</source>
        <translation>automatisch (%1)</translation>
    </message>
    <message>
        <source>system (%1)</source>
        <translation>System (%1)</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen…</translation>
    </message>
    <message>
        <source>Store file</source>
        <translation>Datenspeicher-Datei</translation>
    </message>
    <message>
        <source>SQLite store (*.db *.sqlite)</source>
        <translation>SQLite-Datenspeicher (*.db *.sqlite)</translation>
    </message>
    <message>
        <source>Store:</source>
        <translation>Datenspeicher:</translation>
    </message>
    <message>
        <source>Tasks at &amp;once:</source>
        <translation>Aufgaben &amp;gleichzeitig:</translation>
    </message>
    <message>
        <source>Default time &amp;zone:</source>
        <translation>Standard-&amp;Zeitzone:</translation>
    </message>
    <message>
        <source>Empty: the default store, %1</source>
        <translation>Leer: der Standard-Datenspeicher, %1</translation>
    </message>
    <message>
        <source>Type to search, e.g. Berlin</source>
        <translation>Zum Suchen tippen, z. B. Berlin</translation>
    </message>
    <message>
        <source>A store is a SQLite file or a postgresql:// URL. The store and the number of tasks at once take effect at the next start.</source>
        <translation>Ein Datenspeicher ist eine SQLite-Datei oder eine postgresql://-URL. Datenspeicher und Anzahl gleichzeitiger Aufgaben werden beim nächsten Start wirksam.</translation>
    </message>
    <message>
        <source>the desktop&apos;s colours</source>
        <translation>die Farben des Desktops</translation>
    </message>
    <message>
        <source>light</source>
        <translation>hell</translation>
    </message>
    <message>
        <source>dark</source>
        <translation>dunkel</translation>
    </message>
    <message>
        <source>&amp;Appearance:</source>
        <translation>&amp;Erscheinungsbild:</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Once a day Hourglass copies a SQLite store beside it (NAME-daily-DATE.db) and keeps this many of those copies; 0 takes none. A PostgreSQL store is backed up with pg_dump.</source>
        <translation>Einmal am Tag kopiert Hourglass einen SQLite-Datenspeicher in denselben Ordner (NAME-daily-DATUM.db) und behält so viele dieser Kopien; bei 0 wird keine angelegt. Ein PostgreSQL-Datenspeicher wird mit pg_dump gesichert.</translation>
    </message>
    <message>
        <source>Daily &amp;backups kept:</source>
        <translation>Aufbewahrte tägliche &amp;Sicherungen:</translation>
    </message>
    <message>
        <source>This desktop has no system tray.</source>
        <translation>Diese Arbeitsumgebung hat keinen Systembereich der Kontrollleiste.</translation>
    </message>
    <message>
        <source>Desktop notifications are not available here: there is no system tray and no notification service on the session bus. The window keeps every notification under Notifications in its status bar.</source>
        <translation>Desktop-Benachrichtigungen sind hier nicht verfügbar: Es gibt keinen Systembereich der Kontrollleiste und keinen Benachrichtigungsdienst auf dem Sitzungsbus. Das Fenster bewahrt jede Benachrichtigung unter „Benachrichtigungen“ in seiner Statusleiste auf.</translation>
    </message>
    <message>
        <source>This window has %1 open (given with --db); the store above is the one Hourglass opens when started without it.</source>
        <translation>Dieses Fenster hat %1 geöffnet (mit --db angegeben); der Speicher oben ist der, den Hourglass ohne diese Angabe öffnet.</translation>
    </message>
</context>
<context>
    <name>hg::SmtpSender</name>
    <message>
        <source>libcurl could not start a transfer</source>
        <translation>libcurl konnte keine Übertragung beginnen</translation>
    </message>
    <message>
        <source>accepted</source>
        <translation>angenommen</translation>
    </message>
    <message>
        <source> (the server said: %1)</source>
        <translation> (der Server sagte: %1)</translation>
    </message>
    <message>
        <source>the CA file %1 is not a file</source>
        <translation>die CA-Datei %1 ist keine Datei</translation>
    </message>
</context>
<context>
    <name>hg::SqliteCopy</name>
    <message>
        <source>%1 does not exist or is not a file</source>
        <translation>%1 existiert nicht oder ist keine Datei</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>%1 is not a SQLite database</source>
        <translation>%1 ist keine SQLite-Datenbank</translation>
    </message>
    <message>
        <source>cannot create %1: %2</source>
        <translation>%1 kann nicht angelegt werden: %2</translation>
    </message>
    <message>
        <source>the copy fails SQLite&apos;s integrity check: %1</source>
        <translation>die Kopie besteht die Integritätsprüfung von SQLite nicht: %1</translation>
    </message>
    <message>
        <source>cannot copy %1 to %2: %3</source>
        <translation>%1 kann nicht nach %2 kopiert werden: %3</translation>
    </message>
    <message>
        <source>cannot rename %1 to %2: %3</source>
        <translation>%1 kann nicht in %2 umbenannt werden: %3</translation>
    </message>
</context>
<context>
    <name>hg::SqliteFileIdentity</name>
    <message>
        <source>store %1 was removed or replaced since it was opened: nothing more is written to it (open it again to go on)</source>
        <translation>Der Speicher %1 wurde entfernt oder ersetzt, seit er geöffnet wurde: Es wird nichts mehr hineingeschrieben (öffnen Sie ihn erneut, um fortzufahren)</translation>
    </message>
    <message>
        <source>the write-ahead log %1-wal of the store was removed or replaced since it was opened: nothing more is written to it (open the store again to go on)</source>
        <translation>das Write-Ahead-Log %1-wal des Speichers wurde entfernt oder ersetzt, seit er geöffnet wurde: Es wird nichts mehr hineingeschrieben (öffnen Sie den Speicher erneut, um fortzufahren)</translation>
    </message>
</context>
<context>
    <name>hg::StatePresentation</name>
    <message>
        <source>queued</source>
        <translation>eingereiht</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>wartend</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>Zeit abgelaufen</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>unterbrochen</translation>
    </message>
    <message>
        <source>never ran</source>
        <translation>nie gelaufen</translation>
    </message>
    <message>
        <source>schedule</source>
        <translation>Zeitplan</translation>
    </message>
    <message>
        <source>manual</source>
        <translation>manuell</translation>
    </message>
    <message>
        <source>rerun</source>
        <translation>Wiederholung</translation>
    </message>
    <message>
        <source>backfill</source>
        <translation>Nachholung</translation>
    </message>
    <message>
        <source>subchain</source>
        <translation>Unterkette</translation>
    </message>
    <message>
        <source>trigger</source>
        <translation>Auslöser</translation>
    </message>
    <message>
        <source>after run %1 of %2 %3</source>
        <translation>nach Lauf %1 von %2: %3</translation>
    </message>
    <message>
        <source>ended</source>
        <translation>beendet</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s), %1 gathered by the storm guard</source>
        <translation>
            <numerusform>%n Datei, %1 vom Sturmschutz gesammelt</numerusform>
            <numerusform>%n Dateien, %1 vom Sturmschutz gesammelt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) at once</source>
        <translation>
            <numerusform>%n Datei auf einmal</numerusform>
            <numerusform>%n Dateien auf einmal</numerusform>
        </translation>
    </message>
    <message>
        <source>file %1 %2</source>
        <translation>Datei %1 %2</translation>
    </message>
    <message>
        <source>moved in</source>
        <translation>hineinverschoben</translation>
    </message>
    <message>
        <source>%1 (while no engine watched)</source>
        <translation>%1 (während keine Engine beobachtete)</translation>
    </message>
    <message>
        <source>created</source>
        <translation>erstellt</translation>
    </message>
    <message>
        <source>modified</source>
        <translation>geändert</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>gelöscht</translation>
    </message>
    <message>
        <source>webhook, delivery %1</source>
        <translation>Webhook, Zustellung %1</translation>
    </message>
</context>
<context>
    <name>hg::Store</name>
    <message>
        <source>cannot configure store (%1): %2</source>
        <translation>der Datenspeicher kann nicht eingerichtet werden (%1): %2</translation>
    </message>
    <message>
        <source>store %1 has schema version %2, newer than this Hourglass understands (%3); upgrade Hourglass</source>
        <translation>der Datenspeicher %1 hat die Schemaversion %2, neuer als dieses Hourglass versteht (%3); Hourglass aktualisieren</translation>
    </message>
    <message>
        <source>store %1 has schema version %2; this Hourglass needs %3 and was asked not to migrate it</source>
        <translation>der Datenspeicher %1 hat die Schemaversion %2; dieses Hourglass braucht %3 und soll ihn nicht migrieren</translation>
    </message>
    <message>
        <source>cannot create store directory %1</source>
        <translation>das Verzeichnis des Datenspeichers %1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>cannot create store %1: %2</source>
        <translation>der Datenspeicher %1 kann nicht angelegt werden: %2</translation>
    </message>
    <message>
        <source>cannot open store %1: it is a directory</source>
        <translation>der Datenspeicher %1 kann nicht geöffnet werden: er ist ein Verzeichnis</translation>
    </message>
    <message>
        <source>cannot open store %1: %2</source>
        <translation>der Datenspeicher %1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>cannot begin a transaction: %1</source>
        <translation>eine Transaktion kann nicht begonnen werden: %1</translation>
    </message>
    <message>
        <source>cannot commit: %1</source>
        <translation>Festschreiben nicht möglich: %1</translation>
    </message>
    <message>
        <source>the store cannot be reached</source>
        <translation>der Datenspeicher ist nicht erreichbar</translation>
    </message>
    <message>
        <source>cannot connect to %1: %2</source>
        <translation>keine Verbindung zu %1: %2</translation>
    </message>
    <message>
        <source>store %1 is damaged and cannot be read: %2</source>
        <translation>der Datenspeicher %1 ist beschädigt und kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>store %1 is damaged: %2; it was left untouched</source>
        <translation>der Datenspeicher %1 ist beschädigt: %2; er wurde nicht verändert</translation>
    </message>
    <message>
        <source>store %1 is damaged and open read-only: nothing can be written to it</source>
        <translation>der Datenspeicher %1 ist beschädigt und nur lesend geöffnet: es kann nichts hineingeschrieben werden</translation>
    </message>
    <message>
        <source>cannot begin a transaction: store %1 cannot be written (%2)</source>
        <translation>Transaktion kann nicht beginnen: Speicher %1 kann nicht beschrieben werden (%2)</translation>
    </message>
    <message>
        <source>the transaction was rolled back: %1</source>
        <translation>die Transaktion wurde zurückgerollt: %1</translation>
    </message>
    <message>
        <source>%1 is the store itself (%2): not written over</source>
        <translation>%1 ist der Speicher selbst (%2): nicht überschrieben</translation>
    </message>
    <message>
        <source>cannot open store %1: it is not a regular file (a FIFO, a device or a socket)</source>
        <translation>Speicher %1 kann nicht geöffnet werden: keine reguläre Datei (ein FIFO, ein Gerät oder ein Socket)</translation>
    </message>
    <message>
        <source>cannot open store %1: the file has %2 hard links, and SQLite keeps its journal and locks by name, so two names of one file let two engines write it at once; remove the other links (find / -samefile %1) or use a symbolic link</source>
        <translation>Speicher %1 kann nicht geöffnet werden: die Datei hat %2 harte Links, und SQLite führt Journal und Sperren nach dem Namen, sodass zwei Namen einer Datei zwei Engines zugleich schreiben lassen; entfernen Sie die anderen Links (find / -samefile %1) oder nutzen Sie einen symbolischen Link</translation>
    </message>
</context>
<context>
    <name>hg::StoreBackup</name>
    <message>
        <source>%1 is a PostgreSQL store: back it up with pg_dump and restore it with pg_restore (PostgreSQL&apos;s own tools keep its transactions consistent)</source>
        <translation>%1 ist ein PostgreSQL-Datenspeicher: sichern Sie ihn mit pg_dump und stellen Sie ihn mit pg_restore wieder her (die Werkzeuge von PostgreSQL halten seine Transaktionen konsistent)</translation>
    </message>
    <message>
        <source>store %1 is damaged (%2): a backup would carry the damage; export what can still be read instead</source>
        <translation>der Datenspeicher %1 ist beschädigt (%2): eine Sicherung enthielte den Schaden; exportieren Sie stattdessen, was sich noch lesen lässt</translation>
    </message>
    <message>
        <source>%1 is the store itself</source>
        <translation>%1 ist der Datenspeicher selbst</translation>
    </message>
    <message>
        <source>%1 exists already; choose another file</source>
        <translation>%1 existiert bereits; wählen Sie eine andere Datei</translation>
    </message>
    <message>
        <source>cannot write %1: folder %2 does not exist</source>
        <translation>%1 kann nicht geschrieben werden: der Ordner %2 existiert nicht</translation>
    </message>
</context>
<context>
    <name>hg::StoreBanner</name>
    <message>
        <source>&amp;Export what can be read…</source>
        <translation>Lesbares e&amp;xportieren…</translation>
    </message>
    <message>
        <source>Restore from &amp;backup…</source>
        <translation>Aus &amp;Sicherung wiederherstellen…</translation>
    </message>
    <message>
        <source>&lt;b&gt;This store is damaged and was opened read-only.&lt;/b&gt;&lt;br&gt;%1&lt;br&gt;SQLite&apos;s check found: %2&lt;br&gt;Nothing is written to it and no schedule runs. Save what can still be read, or put a backup in its place.</source>
        <translation>&lt;b&gt;Dieser Datenspeicher ist beschädigt und wurde nur lesend geöffnet.&lt;/b&gt;&lt;br&gt;%1&lt;br&gt;Die Prüfung von SQLite fand: %2&lt;br&gt;Es wird nichts hineingeschrieben und kein Zeitplan läuft. Sichern Sie, was sich noch lesen lässt, oder setzen Sie eine Sicherung an seine Stelle.</translation>
    </message>
    <message>
        <source>The store is damaged</source>
        <translation>Der Datenspeicher ist beschädigt</translation>
    </message>
    <message>
        <source>&lt;b&gt;The engine does not run in this window.&lt;/b&gt;&lt;br&gt;%1&lt;br&gt;The window still shows the store; runs started here are queued for the engine that serves it.</source>
        <translation>&lt;b&gt;Die Engine läuft nicht in diesem Fenster.&lt;/b&gt;&lt;br&gt;%1&lt;br&gt;Das Fenster zeigt den Datenspeicher weiterhin; hier gestartete Läufe werden für die Engine eingereiht, die ihn bedient.</translation>
    </message>
    <message>
        <source>The engine does not run here</source>
        <translation>Die Engine läuft nicht hier</translation>
    </message>
    <message>
        <source>&lt;b&gt;The store&apos;s file was deleted or replaced, and the engine stopped.&lt;/b&gt;&lt;br&gt;%1&lt;br&gt;Nothing more is saved and no schedule runs. The window still reads the old file: save what it shows, then start Hourglass again.</source>
        <translation>&lt;b&gt;Die Datei des Speichers wurde gelöscht oder ersetzt, und die Engine hat angehalten.&lt;/b&gt;&lt;br&gt;%1&lt;br&gt;Es wird nichts mehr gespeichert, und kein Zeitplan läuft. Das Fenster liest noch die alte Datei: Sichern Sie, was es zeigt, und starten Sie Hourglass dann neu.</translation>
    </message>
    <message>
        <source>The store&apos;s file is gone</source>
        <translation>Die Datei des Speichers ist weg</translation>
    </message>
</context>
<context>
    <name>hg::StoreFileActions</name>
    <message>
        <source>&amp;Export…</source>
        <translation>E&amp;xportieren…</translation>
    </message>
    <message>
        <source>Restore from &amp;backup…</source>
        <translation>Aus &amp;Sicherung wiederherstellen…</translation>
    </message>
    <message>
        <source>Save every project, chain, task and schedule to a file that hourglass import reads</source>
        <translation>Alle Projekte, Ketten, Aufgaben und Zeitpläne in eine Datei schreiben, die hourglass import liest</translation>
    </message>
    <message>
        <source>Put a backup in the place of this store</source>
        <translation>Eine Sicherung an die Stelle dieses Datenspeichers setzen</translation>
    </message>
    <message>
        <source>A PostgreSQL store is restored with pg_restore</source>
        <translation>Ein PostgreSQL-Datenspeicher wird mit pg_restore wiederhergestellt</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Export projects</source>
        <translation>Projekte exportieren</translation>
    </message>
    <message>
        <source>Hourglass export (*.json);;All files (*)</source>
        <translation>Hourglass-Export (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Exported every project to %1</source>
        <translation>Alle Projekte nach %1 exportiert</translation>
    </message>
    <message>
        <source>Exported what could be read to %1. Left out:
%2</source>
        <translation>Was sich lesen ließ, wurde nach %1 exportiert. Ausgelassen:
%2</translation>
    </message>
    <message>
        <source>Restore from backup</source>
        <translation>Aus Sicherung wiederherstellen</translation>
    </message>
    <message>
        <source>Backups of this store (%1-backup-*.db %1-daily-*.db %1-before-restore-*.db);;Hourglass stores (*.db);;All files (*)</source>
        <translation>Sicherungen dieses Datenspeichers (%1-backup-*.db %1-daily-*.db %1-before-restore-*.db);;Hourglass-Datenspeicher (*.db);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Replace the store %1 with the backup %2, saved %3?

The store now in use is kept beside it as %4-before-restore-DATE-TIME.db. Hourglass closes the store, restores the backup and opens it again; it refuses while an engine elsewhere serves the store.</source>
        <translation>Den Datenspeicher %1 durch die Sicherung %2 vom %3 ersetzen?

Der jetzt verwendete Datenspeicher bleibt daneben als %4-before-restore-DATUM-ZEIT.db erhalten. Hourglass schließt den Datenspeicher, stellt die Sicherung wieder her und öffnet ihn erneut; solange eine Engine anderswo den Datenspeicher bedient, wird das verweigert.</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>&amp;Wiederherstellen</translation>
    </message>
</context>
<context>
    <name>hg::StoreLocation</name>
    <message>
        <source>invalid PostgreSQL URL &apos;%1&apos;: expected postgresql://user[:password]@host[:port]/database</source>
        <translation>ungültige PostgreSQL-URL „%1“: erwartet wird postgresql://user[:password]@host[:port]/database</translation>
    </message>
    <message>
        <source>PostgreSQL URL &apos;%1&apos; names no database</source>
        <translation>die PostgreSQL-URL „%1“ nennt keine Datenbank</translation>
    </message>
    <message>
        <source>empty store path</source>
        <translation>leerer Pfad zum Datenspeicher</translation>
    </message>
    <message>
        <source>unsupported store URL &apos;%1&apos;: use a file path or postgresql://</source>
        <translation>nicht unterstützte Datenspeicher-URL „%1“: einen Dateipfad oder postgresql:// verwenden</translation>
    </message>
    <message>
        <source>--db: the URL carries a password, which every user of this machine can read in the process list for as long as Hourglass runs; give the URL without it and keep the password in the keychain (hourglass --db URL store password --password-stdin), in ~/.pgpass, or pass the URL in HOURGLASS_DB</source>
        <translation>--db: die URL enthält ein Passwort, das jeder Benutzer dieses Rechners in der Prozessliste lesen kann, solange Hourglass läuft; geben Sie die URL ohne es an und legen Sie das Passwort im Schlüsselbund (hourglass --db URL store password --password-stdin) oder in ~/.pgpass ab, oder übergeben Sie die URL in HOURGLASS_DB</translation>
    </message>
    <message>
        <source>--db: this holds a password setting; a SQLite store is a file path, a PostgreSQL store a postgresql:// URL without a password (keep it in the keychain: hourglass --db URL store password --password-stdin, or in ~/.pgpass)</source>
        <translation>--db: Dies enthält eine Passwort-Einstellung; ein SQLite-Speicher ist ein Dateipfad, ein PostgreSQL-Speicher eine postgresql://-URL ohne Passwort (bewahren Sie es im Schlüsselbund auf: hourglass --db URL store password --password-stdin, oder in ~/.pgpass)</translation>
    </message>
</context>
<context>
    <name>hg::StoreOpenCheck</name>
    <message>
        <source>Connecting to the store:
%1</source>
        <translation>Verbindung zum Speicher wird hergestellt:
%1</translation>
    </message>
    <message>
        <source>Checking the store before opening it:
%1 (%2)</source>
        <translation>Der Speicher wird vor dem Öffnen geprüft:
%1 (%2)</translation>
    </message>
    <message>
        <source>Checking the store</source>
        <translation>Speicher wird geprüft</translation>
    </message>
</context>
<context>
    <name>hg::StorePermissions</name>
    <message>
        <source>%1 belongs to another user (uid %2): a store must be its user&apos;s own</source>
        <translation>%1 gehört einem anderen Benutzer (UID %2): ein Speicher muss seinem Benutzer gehören</translation>
    </message>
    <message>
        <source>%1 can be written by other users (mode %2, owner uid %3): anyone could plant tasks that run as you; use a store in a folder of your own</source>
        <translation>%1 ist für andere Benutzer schreibbar (Modus %2, Eigentümer-UID %3): jeder könnte Aufgaben einschleusen, die als Sie laufen; verwenden Sie einen Speicher in einem eigenen Ordner</translation>
    </message>
    <message>
        <source>%1 can be written by other users (mode %2) and cannot be changed: %3</source>
        <translation>%1 ist für andere Benutzer schreibbar (Modus %2) und lässt sich nicht ändern: %3</translation>
    </message>
</context>
<context>
    <name>hg::StoreQuery</name>
    <message>
        <source>cannot %1: %2</source>
        <translation>%1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>cannot %1: already exists (%2)</source>
        <translation>%1 fehlgeschlagen: gibt es bereits (%2)</translation>
    </message>
    <message>
        <source>cannot %1: it is still referenced or refers to something missing (%2)</source>
        <translation>%1 fehlgeschlagen: wird noch verwendet oder verweist auf etwas, das fehlt (%2)</translation>
    </message>
    <message>
        <source>cannot %1: a value is out of range (%2)</source>
        <translation>%1 fehlgeschlagen: ein Wert liegt außerhalb des zulässigen Bereichs (%2)</translation>
    </message>
    <message>
        <source>cannot %1: the store cannot be reached</source>
        <translation>%1 fehlgeschlagen: der Datenspeicher ist nicht erreichbar</translation>
    </message>
    <message>
        <source>cannot %1: store %2 is damaged (%3)</source>
        <translation>%1 fehlgeschlagen: der Datenspeicher %2 ist beschädigt (%3)</translation>
    </message>
    <message>
        <source>cannot %1: store %2 is damaged and open read-only</source>
        <translation>%1 fehlgeschlagen: der Datenspeicher %2 ist beschädigt und nur lesend geöffnet</translation>
    </message>
    <message>
        <source>cannot %1: store %2 cannot be written (%3)</source>
        <translation>%1 fehlgeschlagen: Speicher %2 kann nicht beschrieben werden (%3)</translation>
    </message>
    <message>
        <source>cannot %1: its transaction is rolled back after: %2</source>
        <translation>%1 fehlgeschlagen: seine Transaktion wird zurückgerollt nach: %2</translation>
    </message>
</context>
<context>
    <name>hg::StoreRestore</name>
    <message>
        <source>%1 fails SQLite&apos;s integrity check: %2</source>
        <translation>%1 besteht die Integritätsprüfung von SQLite nicht: %2</translation>
    </message>
    <message>
        <source>%1 is not a Hourglass store (it has no schema version)</source>
        <translation>%1 ist kein Hourglass-Datenspeicher (er hat keine Schemaversion)</translation>
    </message>
    <message>
        <source>%1 has schema version %2, newer than this Hourglass understands (%3); restore it with a newer Hourglass</source>
        <translation>%1 hat die Schemaversion %2, neuer als diese Hourglass-Version versteht (%3); stellen Sie ihn mit einem neueren Hourglass wieder her</translation>
    </message>
    <message>
        <source>%1 is the store itself</source>
        <translation>%1 ist der Datenspeicher selbst</translation>
    </message>
    <message>
        <source>an engine serves %1: %2; stop it first, then restore</source>
        <translation>eine Engine bedient %1: %2; beenden Sie sie zuerst und stellen Sie dann wieder her</translation>
    </message>
    <message>
        <source>cannot tell whether an engine serves %1 (%2); make sure none does, then restore with --force</source>
        <translation>es lässt sich nicht feststellen, ob eine Engine %1 bedient (%2); stellen Sie sicher, dass keine es tut, und stellen Sie dann mit --force wieder her</translation>
    </message>
    <message>
        <source>cannot keep %1 as %2</source>
        <translation>%1 kann nicht als %2 aufbewahrt werden</translation>
    </message>
    <message>
        <source>%1 is not a Hourglass store of schema version %2: it lacks %3</source>
        <translation>%1 ist kein Hourglass-Speicher der Schemaversion %2: es fehlt %3</translation>
    </message>
</context>
<context>
    <name>hg::SubchainLineage</name>
    <message>
        <source>subchain %1: %2</source>
        <translation>Unterkette %1: %2</translation>
    </message>
    <message>
        <source>subchain cycle: %1</source>
        <translation>Zyklus von Unterketten: %1</translation>
    </message>
</context>
<context>
    <name>hg::SystemdCalendar</name>
    <message>
        <source>OnCalendar= is empty</source>
        <translation>OnCalendar= ist leer</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is neither a weekday, a date nor a time</source>
        <translation>„%1“ ist weder ein Wochentag noch ein Datum noch eine Uhrzeit</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: the last days of a month (&apos;~&apos;) have no cron counterpart</source>
        <translation>„%1“: die letzten Tage eines Monats („~“) haben keine Entsprechung in cron</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a date (YYYY-MM-DD or MM-DD)</source>
        <translation>„%1“ ist kein Datum (JJJJ-MM-TT oder MM-TT)</translation>
    </message>
    <message>
        <source>year &apos;%1&apos;: cron has no years; only &apos;*&apos; can be imported</source>
        <translation>Jahr „%1“: cron kennt keine Jahre; nur „*“ lässt sich importieren</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a time (HH:MM or HH:MM:SS)</source>
        <translation>„%1“ ist keine Uhrzeit (HH:MM oder HH:MM:SS)</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: fractions of a second have no cron counterpart</source>
        <translation>„%1“: Sekundenbruchteile haben keine Entsprechung in cron</translation>
    </message>
    <message>
        <source>second</source>
        <translation>Sekunde</translation>
    </message>
    <message>
        <source>minute</source>
        <translation>Minute</translation>
    </message>
    <message>
        <source>hour</source>
        <translation>Stunde</translation>
    </message>
    <message>
        <source>day</source>
        <translation>Tag</translation>
    </message>
    <message>
        <source>month</source>
        <translation>Monat</translation>
    </message>
    <message>
        <source>&apos;%1&apos; needs both a weekday and a day of the month to match; cron fires when either matches</source>
        <translation>„%1“ verlangt, dass Wochentag und Monatstag zugleich passen; cron löst aus, wenn einer von beiden passt</translation>
    </message>
    <message>
        <source>%1 &apos;%2&apos; is not a value, range or repetition between %3 and %4</source>
        <translation>%1 „%2“ ist kein Wert, Bereich und keine Wiederholung zwischen %3 und %4</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a weekday (Mon..Sun)</source>
        <translation>„%1“ ist kein Wochentag (Mon..Sun)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a weekday range</source>
        <translation>„%1“ ist kein Bereich von Wochentagen</translation>
    </message>
</context>
<context>
    <name>hg::SystemdPathUnit</name>
    <message>
        <source>section [%1] has no counterpart</source>
        <translation>der Abschnitt [%1] hat keine Entsprechung</translation>
    </message>
    <message>
        <source>systemd starts on every write; Hourglass once the writer closed the file</source>
        <translation>systemd startet bei jedem Schreiben; Hourglass, sobald der Schreibende die Datei geschlossen hat</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a time span</source>
        <translation>&apos;%1&apos; ist keine Zeitspanne</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a number of starts</source>
        <translation>&apos;%1&apos; ist keine Anzahl von Starts</translation>
    </message>
    <message>
        <source>Hourglass does not make the watched folder; it watches it once it is there</source>
        <translation>Hourglass legt den beobachteten Ordner nicht an; es beobachtet ihn, sobald er da ist</translation>
    </message>
    <message>
        <source>%1= has no counterpart</source>
        <translation>%1= hat keine Entsprechung</translation>
    </message>
    <message>
        <source>a folder: watched as its files, %1</source>
        <translation>ein Ordner: beobachtet als seine Dateien, %1</translation>
    </message>
    <message>
        <source>no path could be imported: the chain runs only when started</source>
        <translation>kein Pfad konnte importiert werden: die Kette läuft nur, wenn sie gestartet wird</translation>
    </message>
</context>
<context>
    <name>hg::SystemdTimerImporter</name>
    <message>
        <source>the service this timer starts cannot be read: %1</source>
        <translation>der Dienst, den dieser Timer startet, ist nicht lesbar: %1</translation>
    </message>
    <message>
        <source>From %1</source>
        <translation>Aus %1</translation>
    </message>
    <message>
        <source>no schedule</source>
        <translation>kein Zeitplan</translation>
    </message>
    <message>
        <source>section [%1] has no counterpart</source>
        <translation>Abschnitt [%1] hat keine Entsprechung</translation>
    </message>
    <message>
        <source>runs when the engine starts: the delay of %1 is not kept</source>
        <translation>läuft beim Start der Engine: die Verzögerung von %1 entfällt</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a time span</source>
        <translation>„%1“ ist keine Zeitspanne</translation>
    </message>
    <message>
        <source>Hourglass fires at the second; no accuracy window</source>
        <translation>Hourglass löst sekundengenau aus; kein Genauigkeitsfenster</translation>
    </message>
    <message>
        <source>a random start delay has no counterpart; runs start at their fire times</source>
        <translation>eine zufällige Startverzögerung hat keine Entsprechung; Läufe starten zu ihren Auslösezeiten</translation>
    </message>
    <message>
        <source>%1= has no counterpart</source>
        <translation>%1= hat keine Entsprechung</translation>
    </message>
    <message>
        <source>no trigger could be imported: the chain runs only when started</source>
        <translation>kein Auslöser ließ sich importieren: die Kette läuft nur, wenn sie gestartet wird</translation>
    </message>
    <message>
        <source>a condition systemd checks before each run; Hourglass runs the chain without it</source>
        <translation>eine Bedingung, die systemd vor jedem Lauf prüft; Hourglass führt die Kette ohne sie aus</translation>
    </message>
    <message>
        <source>%1= relates this unit to others; Hourglass knows no units</source>
        <translation>%1= setzt diese Unit in Beziehung zu anderen; Hourglass kennt keine Units</translation>
    </message>
    <message>
        <source>systemd runs it as %1; Hourglass runs it as %2, the user of its engine</source>
        <translation>systemd führt ihn als %1 aus; Hourglass führt ihn als %2 aus, den Benutzer seiner Engine</translation>
    </message>
    <message>
        <source>the service has no ExecStart= line: nothing to run</source>
        <translation>der Dienst hat keine Zeile ExecStart=: nichts auszuführen</translation>
    </message>
    <message>
        <source>the &apos;%1&apos; prefix (another argv[0] or more privileges) has no counterpart</source>
        <translation>das Präfix „%1“ (ein anderes argv[0] oder mehr Rechte) hat keine Entsprechung</translation>
    </message>
    <message>
        <source>the specifier %1 is not replaced</source>
        <translation>der Platzhalter %1 wird nicht ersetzt</translation>
    </message>
    <message>
        <source>a quote is not closed</source>
        <translation>ein Anführungszeichen ist nicht geschlossen</translation>
    </message>
    <message>
        <source>runs through /bin/sh, which expands its variables as systemd did</source>
        <translation>läuft über /bin/sh, das seine Variablen ersetzt, wie systemd es tat</translation>
    </message>
    <message>
        <source>a service without a timer: the chain runs when started (add a schedule to run it on a calendar)</source>
        <translation>ein Dienst ohne Timer: die Kette läuft, wenn sie gestartet wird (fügen Sie einen Zeitplan hinzu, um sie nach Kalender laufen zu lassen)</translation>
    </message>
    <message>
        <source>its files are watched by the engine %1 (this machine&apos;s)</source>
        <translation>seine Dateien beobachtet die Engine %1 (die dieses Rechners)</translation>
    </message>
    <message>
        <source>files %1</source>
        <translation>Dateien %1</translation>
    </message>
</context>
<context>
    <name>hg::TaskForm</name>
    <message>
        <source>A failure does not fail the run</source>
        <translation>Ein Fehlschlag lässt den Lauf nicht fehlschlagen</translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation>&amp;Übernehmen</translation>
    </message>
    <message>
        <source>Re&amp;vert</source>
        <translation>Ver&amp;werfen</translation>
    </message>
    <message>
        <source>Task name</source>
        <translation>Name der Aufgabe</translation>
    </message>
    <message>
        <source>Task kind</source>
        <translation>Typ der Aufgabe</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>Programm</translation>
    </message>
    <message>
        <source>Program arguments</source>
        <translation>Programmargumente</translation>
    </message>
    <message>
        <source>Shell script</source>
        <translation>Shell-Skript</translation>
    </message>
    <message>
        <source>Database connection</source>
        <translation>Datenbankverbindung</translation>
    </message>
    <message>
        <source>SQL statement</source>
        <translation>SQL-Anweisung</translation>
    </message>
    <message>
        <source>SQL parameters</source>
        <translation>SQL-Parameter</translation>
    </message>
    <message>
        <source>Builtin</source>
        <translation>Integrierte Funktion</translation>
    </message>
    <message>
        <source>Builtin arguments</source>
        <translation>Argumente der integrierten Funktion</translation>
    </message>
    <message>
        <source>HTTP request</source>
        <translation>HTTP-Anfrage</translation>
    </message>
    <message>
        <source>Chain to run</source>
        <translation>Auszuführende Kette</translation>
    </message>
    <message>
        <source>Working directory</source>
        <translation>Arbeitsverzeichnis</translation>
    </message>
    <message>
        <source>Timeout in seconds</source>
        <translation>Zeitlimit in Sekunden</translation>
    </message>
    <message>
        <source>Retries</source>
        <translation>Wiederholungen</translation>
    </message>
    <message>
        <source>Retry delay in seconds</source>
        <translation>Wartezeit vor einer Wiederholung in Sekunden</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Shell script, run by /bin/sh -c</source>
        <translation>Shell-Skript, ausgeführt mit /bin/sh -c</translation>
    </message>
    <message>
        <source>Program:</source>
        <translation>Programm:</translation>
    </message>
    <message>
        <source>Arguments:</source>
        <translation>Argumente:</translation>
    </message>
    <message>
        <source>Script:</source>
        <translation>Skript:</translation>
    </message>
    <message>
        <source>Connection:</source>
        <translation>Verbindung:</translation>
    </message>
    <message>
        <source>SQL:</source>
        <translation>SQL:</translation>
    </message>
    <message>
        <source>Parameters:</source>
        <translation>Parameter:</translation>
    </message>
    <message>
        <source>Builtin:</source>
        <translation>Integrierte Funktion:</translation>
    </message>
    <message>
        <source>Argument:</source>
        <translation>Argument:</translation>
    </message>
    <message>
        <source>Chain to run:</source>
        <translation>Auszuführende Kette:</translation>
    </message>
    <message>
        <source>Unapplied changes</source>
        <translation>Nicht übernommene Änderungen</translation>
    </message>
    <message>
        <source>The form differs from the stored task. Apply (Enter) stores it, Revert shows the stored task again.</source>
        <translation>Das Formular weicht von der gespeicherten Aufgabe ab. „Übernehmen“ (Eingabetaste) speichert es, „Verwerfen“ zeigt wieder die gespeicherte Aufgabe.</translation>
    </message>
    <message>
        <source>Store the task as the form shows it (Enter)</source>
        <translation>Die Aufgabe so speichern, wie das Formular sie zeigt (Eingabetaste)</translation>
    </message>
    <message>
        <source>Show the stored task again, dropping the edits</source>
        <translation>Wieder die gespeicherte Aufgabe zeigen und die Änderungen verwerfen</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>Ty&amp;p:</translation>
    </message>
    <message>
        <source>Task fields</source>
        <translation>Felder der Aufgabe</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführung</translation>
    </message>
    <message>
        <source>(the engine&apos;s directory)</source>
        <translation>(Verzeichnis der Engine)</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keins</translation>
    </message>
    <message>
        <source>Working directory:</source>
        <translation>Arbeitsverzeichnis:</translation>
    </message>
    <message>
        <source>Timeout:</source>
        <translation>Zeitlimit:</translation>
    </message>
    <message>
        <source>Retries:</source>
        <translation>Wiederholungen:</translation>
    </message>
    <message>
        <source>Retry delay:</source>
        <translation>Wartezeit vor Wiederholung:</translation>
    </message>
    <message>
        <source>(the store itself)</source>
        <translation>(der Datenspeicher selbst)</translation>
    </message>
    <message>
        <source>Select a task on the canvas, or add one.</source>
        <translation>Eine Aufgabe auf der Zeichenfläche auswählen oder eine hinzufügen.</translation>
    </message>
    <message>
        <source>Unique within the chain; no &apos;/&apos;</source>
        <translation>Eindeutig innerhalb der Kette; kein „/“</translation>
    </message>
    <message>
        <source>What the task runs: a program, a shell script, SQL, a builtin, an HTTP request or another chain</source>
        <translation>Was die Aufgabe ausführt: ein Programm, ein Shell-Skript, SQL, eine integrierte Funktion, eine HTTP-Anfrage oder eine andere Kette</translation>
    </message>
    <message>
        <source>The program&apos;s path; it runs without a shell</source>
        <translation>Der Pfad des Programms; es läuft ohne Shell</translation>
    </message>
    <message>
        <source>Run by /bin/sh -c</source>
        <translation>Ausgeführt von /bin/sh -c</translation>
    </message>
    <message>
        <source>One statement, run in its own transaction</source>
        <translation>Eine Anweisung, in eigener Transaktion ausgeführt</translation>
    </message>
    <message>
        <source>The database the SQL runs on</source>
        <translation>Die Datenbank, auf der das SQL läuft</translation>
    </message>
    <message>
        <source>The builtin to run</source>
        <translation>Die auszuführende integrierte Funktion</translation>
    </message>
    <message>
        <source>PROJECT/CHAIN, run as part of this one</source>
        <translation>PROJEKT/KETTE, als Teil dieser ausgeführt</translation>
    </message>
    <message>
        <source>Where the task runs; empty: the engine&apos;s directory</source>
        <translation>Wo die Aufgabe läuft; leer: das Verzeichnis der Engine</translation>
    </message>
    <message>
        <source>Stopped after this many seconds; 0: never</source>
        <translation>Nach so vielen Sekunden angehalten; 0: nie</translation>
    </message>
    <message>
        <source>How many more attempts after a failure</source>
        <translation>Wie viele weitere Versuche nach einem Fehlschlag</translation>
    </message>
    <message>
        <source>Seconds before the first retry; each next one waits longer</source>
        <translation>Sekunden bis zum ersten erneuten Versuch; jeder weitere wartet länger</translation>
    </message>
    <message>
        <source>The run goes on as if this task had succeeded</source>
        <translation>Der Lauf geht weiter, als wäre diese Aufgabe erfolgreich gewesen</translation>
    </message>
    <message>
        <source>The selected task&apos;s fields; Enter applies them</source>
        <translation>Die Felder der ausgewählten Aufgabe; die Eingabetaste übernimmt sie</translation>
    </message>
    <message>
        <source>SQL statements, run all or nothing; ? marks bind the parameters below (a single statement only)</source>
        <translation>SQL-Anweisungen, alle oder keine ausgeführt; ? bindet die Parameter unten (nur bei einer einzigen Anweisung)</translation>
    </message>
    <message>
        <source>Database connection of the COPY</source>
        <translation>Datenbankverbindung des COPY</translation>
    </message>
    <message>
        <source>The PostgreSQL database a COPY builtin runs on</source>
        <translation>Die PostgreSQL-Datenbank, auf der ein COPY-Befehl läuft</translation>
    </message>
    <message>
        <source>COPY on:</source>
        <translation>COPY auf:</translation>
    </message>
</context>
<context>
    <name>hg::TaskHost</name>
    <message>
        <source>engine %1 stopped while it ran the attempt</source>
        <translation>Engine %1 wurde beendet, während sie den Versuch ausführte</translation>
    </message>
</context>
<context>
    <name>hg::TaskRepository</name>
    <message>
        <source>task &apos;%1&apos; already exists in this chain</source>
        <translation>Aufgabe „%1“ gibt es in dieser Kette bereits</translation>
    </message>
    <message>
        <source>add task &apos;%1&apos;</source>
        <translation>Hinzufügen der Aufgabe „%1“</translation>
    </message>
    <message>
        <source>update task &apos;%1&apos;</source>
        <translation>Ändern der Aufgabe „%1“</translation>
    </message>
    <message>
        <source>unknown task id %1</source>
        <translation>unbekannte Aufgaben-ID %1</translation>
    </message>
    <message>
        <source>read task</source>
        <translation>Lesen der Aufgabe</translation>
    </message>
    <message>
        <source>unknown task &apos;%1&apos;</source>
        <translation>unbekannte Aufgabe „%1“</translation>
    </message>
    <message>
        <source>list tasks</source>
        <translation>Auflisten der Aufgaben</translation>
    </message>
    <message>
        <source>remove task</source>
        <translation>Entfernen der Aufgabe</translation>
    </message>
    <message>
        <source>move task %1</source>
        <translation>Verschieben von Aufgabe %1</translation>
    </message>
    <message>
        <source>the chain of task &apos;%1&apos;</source>
        <translation>die Kette der Aufgabe &apos;%1&apos;</translation>
    </message>
    <message>
        <source>look for a task&apos;s key</source>
        <translation>den Schlüssel einer Aufgabe suchen</translation>
    </message>
</context>
<context>
    <name>hg::TaskRunOffers</name>
    <message>
        <source>offer task run %1 to other engines</source>
        <translation>Task-Lauf %1 anderen Engines anbieten</translation>
    </message>
    <message>
        <source>withdraw offered task run %1</source>
        <translation>angebotenen Task-Lauf %1 zurückziehen</translation>
    </message>
    <message>
        <source>ask the engine running task run %1 to stop it</source>
        <translation>die Engine, die Task-Lauf %1 ausführt, um Anhalten bitten</translation>
    </message>
    <message>
        <source>claim offered task runs</source>
        <translation>angebotene Task-Läufe übernehmen</translation>
    </message>
    <message>
        <source>record the process of task run %1</source>
        <translation>den Prozess von Task-Lauf %1 festhalten</translation>
    </message>
    <message>
        <source>record the end of task run %1</source>
        <translation>das Ende von Task-Lauf %1 festhalten</translation>
    </message>
    <message>
        <source>look at the task runs this engine runs for others</source>
        <translation>die Task-Läufe prüfen, die diese Engine für andere ausführt</translation>
    </message>
    <message>
        <source>offer task run %1 again</source>
        <translation>Task-Lauf %1 erneut anbieten</translation>
    </message>
    <message>
        <source>offer again the task runs this engine does not run</source>
        <translation>die Task-Läufe erneut anbieten, die diese Engine nicht ausführt</translation>
    </message>
    <message>
        <source>the engine that ran this attempt for its run&apos;s engine stopped</source>
        <translation>die Engine, die diesen Versuch für die Engine seines Laufs ausführte, wurde beendet</translation>
    </message>
    <message>
        <source>interrupt task runs of gone engines</source>
        <translation>Task-Läufe verschwundener Engines unterbrechen</translation>
    </message>
</context>
<context>
    <name>hg::TaskRunRepository</name>
    <message>
        <source>insert task run</source>
        <translation>Eintragen des Aufgabenversuchs</translation>
    </message>
    <message>
        <source>update task run %1</source>
        <translation>Aktualisieren von Aufgabenversuch %1</translation>
    </message>
    <message>
        <source>unknown task run %1</source>
        <translation>unbekannter Aufgabenversuch %1</translation>
    </message>
    <message>
        <source>read task run</source>
        <translation>Lesen des Aufgabenversuchs</translation>
    </message>
    <message>
        <source>list task runs</source>
        <translation>Auflisten der Aufgabenversuche</translation>
    </message>
    <message>
        <source>run %1 has no attempt %2 of task %3</source>
        <translation>Lauf %1 hat keinen Versuch %2 von Aufgabe %3</translation>
    </message>
    <message>
        <source>attempt %1 of task %2 in run %3 is stored already</source>
        <translation>Versuch %1 der Aufgabe %2 im Lauf %3 ist bereits gespeichert</translation>
    </message>
    <message>
        <source>read task runs</source>
        <translation>Task-Läufe lesen</translation>
    </message>
    <message>
        <source>unknown task run %1, or another engine runs it</source>
        <translation>unbekannter Aufgabenlauf %1, oder eine andere Engine führt ihn aus</translation>
    </message>
</context>
<context>
    <name>hg::TaskRunsModel</name>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Exit</source>
        <translation>Exit-Code</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Ran on</source>
        <translation>Lief auf</translation>
    </message>
</context>
<context>
    <name>hg::TaskValidator</name>
    <message>
        <source>task &apos;%1&apos;: %2</source>
        <translation>Aufgabe „%1“: %2</translation>
    </message>
    <message>
        <source>task &apos;%1&apos;: a builtin takes one JSON argument</source>
        <translation>Aufgabe „%1“: eine integrierte Funktion nimmt ein JSON-Argument an</translation>
    </message>
    <message>
        <source>task &apos;%1&apos;: an http task takes one JSON argument with %2</source>
        <translation>Aufgabe „%1“: eine HTTP-Aufgabe nimmt ein JSON-Argument mit %2 an</translation>
    </message>
    <message>
        <source>task %1</source>
        <extracomment>%1 is the task&apos;s name followed by the problem: &quot;backup: &apos;x&apos; is not a URL&quot;</extracomment>
        <translation>Aufgabe %1</translation>
    </message>
    <message>
        <source>task &apos;%1&apos;: subchain %2</source>
        <translation>Aufgabe „%1“: Unterkette %2</translation>
    </message>
    <message>
        <source>task &apos;%1&apos;: a %2 task needs a command</source>
        <translation>Aufgabe „%1“: eine Aufgabe vom Typ %2 braucht einen Befehl</translation>
    </message>
    <message>
        <source>task &apos;%1&apos;: bad environment name &apos;%2&apos;</source>
        <translation>Aufgabe „%1“: ungültiger Name einer Umgebungsvariablen „%2“</translation>
    </message>
    <message>
        <source>task &apos;%1&apos;: timeout, retries and retry delay must not be negative</source>
        <translation>Aufgabe „%1“: Zeitlimit, Wiederholungen und Wartezeit vor einer Wiederholung dürfen nicht negativ sein</translation>
    </message>
    <message>
        <source>task &apos;%1&apos;: working folder &apos;%2&apos; is relative; give an absolute path</source>
        <translation>Aufgabe &apos;%1&apos;: der Arbeitsordner &apos;%2&apos; ist relativ; geben Sie einen absoluten Pfad an</translation>
    </message>
    <message>
        <source>task &apos;%1&apos;: retry backoff must be between 1 and %2</source>
        <translation>Aufgabe &apos;%1&apos;: der Wiederholungsfaktor muss zwischen 1 und %2 liegen</translation>
    </message>
    <message>
        <source>task &apos;%1&apos;: only sql tasks and the COPY builtins take a connection</source>
        <translation>Aufgabe „%1“: nur SQL-Aufgaben und die COPY-Befehle nehmen eine Verbindung</translation>
    </message>
</context>
<context>
    <name>hg::TasksModel</name>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Last state</source>
        <translation>Letzter Zustand</translation>
    </message>
</context>
<context>
    <name>hg::TrayController</name>
    <message>
        <source>&amp;Show Hourglass</source>
        <translation>Hourglass &amp;anzeigen</translation>
    </message>
    <message>
        <source>&amp;Pause all schedules</source>
        <translation>Alle Zeitpläne &amp;pausieren</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation>%1 fehlgeschlagen</translation>
    </message>
    <message>
        <source>Run %1 timed out.</source>
        <translation>Lauf %1 hat das Zeitlimit überschritten.</translation>
    </message>
    <message>
        <source>Run %1 failed. Click to see its log.</source>
        <translation>Lauf %1 ist fehlgeschlagen. Klicken, um das Protokoll anzuzeigen.</translation>
    </message>
    <message>
        <source>%1 recovered</source>
        <translation>%1 wieder erfolgreich</translation>
    </message>
    <message>
        <source>%1 succeeded</source>
        <translation>%1 erfolgreich</translation>
    </message>
    <message>
        <source>Run %1 succeeded.</source>
        <translation>Lauf %1 war erfolgreich.</translation>
    </message>
    <message>
        <source> — schedules paused</source>
        <translation> — Zeitpläne pausiert</translation>
    </message>
    <message>
        <source>Hourglass: idle</source>
        <translation>Hourglass: im Leerlauf</translation>
    </message>
    <message numerus="yes">
        <source>Hourglass: %n run(s) going</source>
        <translation>
            <numerusform>Hourglass: %n Lauf aktiv</numerusform>
            <numerusform>Hourglass: %n Läufe aktiv</numerusform>
        </translation>
    </message>
    <message>
        <source>Hourglass: the last run failed</source>
        <translation>Hourglass: Der letzte Lauf ist fehlgeschlagen</translation>
    </message>
    <message>
        <source>The store cannot be used (unreachable or refusing writes); retrying</source>
        <translation>Der Speicher ist nicht nutzbar (nicht erreichbar oder verweigert Schreibzugriffe); neuer Versuch läuft</translation>
    </message>
    <message numerus="yes">
        <source>%n &amp;missed run(s) wait for a decision…</source>
        <translation>
            <numerusform>%n &amp;versäumter Lauf wartet auf eine Entscheidung…</numerusform>
            <numerusform>%n &amp;versäumte Läufe warten auf eine Entscheidung…</numerusform>
        </translation>
    </message>
    <message>
        <source>Missed runs wait</source>
        <translation>Versäumte Läufe warten</translation>
    </message>
    <message numerus="yes">
        <source>%n missed run(s) wait for your decision: run them, run the latest, or dismiss them.</source>
        <translation>
            <numerusform>%n versäumter Lauf wartet auf Ihre Entscheidung: ausführen, nur den letzten ausführen oder verwerfen.</numerusform>
            <numerusform>%n versäumte Läufe warten auf Ihre Entscheidung: ausführen, nur den letzten ausführen oder verwerfen.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n missed run(s) wait for your decision</source>
        <translation>
            <numerusform>%n versäumter Lauf wartet auf Ihre Entscheidung</numerusform>
            <numerusform>%n versäumte Läufe warten auf Ihre Entscheidung</numerusform>
        </translation>
    </message>
    <message>
        <source>The store is unreachable</source>
        <translation>Der Datenspeicher ist nicht erreichbar</translation>
    </message>
    <message numerus="yes">
        <source>Hourglass has not reached its store for %n minute(s): schedules wait, and what ends meanwhile is written once it is back.</source>
        <translation>
            <numerusform>Hourglass hat seinen Datenspeicher seit %n Minute nicht erreicht: die Zeitpläne warten, und was inzwischen endet, wird geschrieben, sobald er wieder da ist.</numerusform>
            <numerusform>Hourglass hat seinen Datenspeicher seit %n Minuten nicht erreicht: die Zeitpläne warten, und was inzwischen endet, wird geschrieben, sobald er wieder da ist.</numerusform>
        </translation>
    </message>
    <message>
        <source>The store is back</source>
        <translation>Der Datenspeicher ist wieder da</translation>
    </message>
    <message>
        <source>Hourglass reaches its store again; runs go on.</source>
        <translation>Hourglass erreicht seinen Datenspeicher wieder; die Läufe gehen weiter.</translation>
    </message>
</context>
<context>
    <name>hg::TreeEditing</name>
    <message>
        <source>New &amp;project</source>
        <translation>Neues &amp;Projekt</translation>
    </message>
    <message>
        <source>&amp;New chain</source>
        <translation>&amp;Neue Kette</translation>
    </message>
    <message>
        <source>Re&amp;name</source>
        <translation>&amp;Umbenennen</translation>
    </message>
    <message>
        <source>D&amp;uplicate</source>
        <translation>&amp;Duplizieren</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Löschen…</translation>
    </message>
    <message>
        <source>&amp;Enable / disable</source>
        <translation>&amp;Aktivieren / deaktivieren</translation>
    </message>
    <message>
        <source>project</source>
        <translation>Projekt</translation>
    </message>
    <message>
        <source>project %1</source>
        <translation>Projekt %1</translation>
    </message>
    <message>
        <source>chain</source>
        <translation>Kette</translation>
    </message>
    <message>
        <source>chain %1</source>
        <translation>Kette %1</translation>
    </message>
    <message>
        <source>Delete chain</source>
        <translation>Kette löschen</translation>
    </message>
    <message>
        <source>Delete the chain “%1” with its %2 task(s) and %3 schedule(s)?

Its run history and logs are deleted too. Undo brings the definition back, not the history.</source>
        <translation>Die Kette „%1“ mit ihren Aufgaben (%2) und Zeitplänen (%3) löschen?

Ihr Laufverlauf und ihre Protokolle werden ebenfalls gelöscht. Rückgängig stellt die Definition wieder her, nicht den Verlauf.</translation>
    </message>
    <message>
        <source>Delete project</source>
        <translation>Projekt löschen</translation>
    </message>
    <message>
        <source>Delete the project “%1” and its %2 chain(s)?

Their run history is deleted too. Undo brings the definitions back.</source>
        <translation>Das Projekt „%1“ und seine Ketten (%2) löschen?

Deren Laufverlauf wird ebenfalls gelöscht. Rückgängig stellt die Definitionen wieder her.</translation>
    </message>
</context>
<context>
    <name>hg::TreeFilter</name>
    <message>
        <source>Find a chain (Ctrl+F)</source>
        <translation>Kette suchen (Strg+F)</translation>
    </message>
    <message>
        <source>Find a chain</source>
        <translation>Kette suchen</translation>
    </message>
    <message>
        <source>Shows the chains whose project or name holds this text; Down moves into the tree</source>
        <translation>Zeigt die Ketten, deren Projekt oder Name diesen Text enthält; Pfeil nach unten wechselt in den Baum</translation>
    </message>
    <message>
        <source>Which chains to show</source>
        <translation>Welche Ketten gezeigt werden</translation>
    </message>
    <message>
        <source>All chains</source>
        <translation>Alle Ketten</translation>
    </message>
    <message>
        <source>Last run failed</source>
        <translation>Letzter Lauf fehlgeschlagen</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Switched off</source>
        <translation>Ausgeschaltet</translation>
    </message>
    <message>
        <source>Missed runs waiting</source>
        <translation>Versäumte Läufe warten</translation>
    </message>
    <message>
        <source>All chains, or only those whose last run failed, running, switched off, with missed runs waiting, or that fire within the next hour or day</source>
        <translation>Alle Ketten, oder nur die, deren letzter Lauf fehlschlug, die laufen, ausgeschaltet sind, versäumte Läufe haben oder in der nächsten Stunde oder am nächsten Tag auslösen</translation>
    </message>
    <message>
        <source>Next hour&apos;s fires</source>
        <translation>In 1 Std. fällig</translation>
    </message>
    <message>
        <source>Next day&apos;s fires</source>
        <translation>In 1 Tag fällig</translation>
    </message>
</context>
<context>
    <name>hg::TriggerDialog</name>
    <message>
        <source>New trigger</source>
        <translation>Neuer Auslöser</translation>
    </message>
    <message>
        <source>Starts</source>
        <translation>Startet</translation>
    </message>
    <message>
        <source>After other chains end</source>
        <translation>Nach dem Ende anderer Ketten</translation>
    </message>
    <message>
        <source>When files arrive</source>
        <translation>Wenn Dateien ankommen</translation>
    </message>
    <message>
        <source>On a desktop event</source>
        <translation>Bei einem Desktop-Ereignis</translation>
    </message>
    <message>
        <source>&amp;Starts:</source>
        <translation>&amp;Startet:</translation>
    </message>
    <message>
        <source>PROJECT/CHAIN, another…</source>
        <translation>PROJEKT/KETTE, weitere…</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <source>failed (a timeout too)</source>
        <translation>fehlgeschlagen (auch eine Zeitüberschreitung)</translation>
    </message>
    <message>
        <source>finished (any end)</source>
        <translation>beendet (jedes Ende)</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>any one of them</source>
        <translation>irgendeine davon</translation>
    </message>
    <message>
        <source>&amp;After:</source>
        <translation>&amp;Nach:</translation>
    </message>
    <message>
        <source>&amp;When a run has:</source>
        <translation>&amp;Wenn ein Lauf:</translation>
    </message>
    <message>
        <source>&amp;created</source>
        <translation>&amp;erstellt</translation>
    </message>
    <message>
        <source>&amp;modified</source>
        <translation>&amp;geändert</translation>
    </message>
    <message>
        <source>&amp;deleted</source>
        <translation>ge&amp;löscht</translation>
    </message>
    <message>
        <source>mo&amp;ved in</source>
        <translation>hinein&amp;verschoben</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>keine Grenze</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>inotify (polled where it cannot see)</source>
        <translation>inotify (abgefragt, wo es nicht sieht)</translation>
    </message>
    <message>
        <source>a run for each</source>
        <translation>ein Lauf für jede</translation>
    </message>
    <message>
        <source>one run for all</source>
        <translation>ein Lauf für alle</translation>
    </message>
    <message>
        <source>skip them</source>
        <translation>überspringen</translation>
    </message>
    <message>
        <source>&amp;Files:</source>
        <translation>&amp;Dateien:</translation>
    </message>
    <message>
        <source>Events:</source>
        <translation>Ereignisse:</translation>
    </message>
    <message>
        <source>&amp;Settled for:</source>
        <translation>&amp;Ruhig seit:</translation>
    </message>
    <message>
        <source>&amp;Poll every:</source>
        <translation>&amp;Abfragen alle:</translation>
    </message>
    <message>
        <source>session idle</source>
        <translation>Sitzung im Leerlauf</translation>
    </message>
    <message>
        <source>&amp;Event:</source>
        <translation>&amp;Ereignis:</translation>
    </message>
    <message>
        <source>&amp;Idle for:</source>
        <translation>&amp;Leerlauf seit:</translation>
    </message>
    <message>
        <source>After: %1</source>
        <translation>Nach: %1</translation>
    </message>
    <message>
        <source>After: name the chains whose runs start this one</source>
        <translation>Nach: nennen Sie die Ketten, deren Läufe diese starten</translation>
    </message>
    <message>
        <source>All with&amp;in:</source>
        <translation>Alle inner&amp;halb:</translation>
    </message>
    <message>
        <source>At most, a minu&amp;te:</source>
        <translation>Höchstens pro Minu&amp;te:</translation>
    </message>
    <message>
        <source>Arrived while st&amp;opped:</source>
        <translation>Angekommen während ange&amp;halten:</translation>
    </message>
    <message>
        <source>ask me (the missed-runs inbox)</source>
        <translation>mich fragen (Eingang verpasster Läufe)</translation>
    </message>
</context>
<context>
    <name>hg::UpcomingModel</name>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Chain</source>
        <translation>Kette</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Zeitplan</translation>
    </message>
</context>
<context>
    <name>hg::UpcomingPage</name>
    <message>
        <source>Every fire of the coming week, by time</source>
        <translation>Jede Auslösung der kommenden Woche, nach Zeit</translation>
    </message>
    <message>
        <source>Upcoming fire times</source>
        <translation>Anstehende Auslösezeiten</translation>
    </message>
    <message>
        <source>Week timeline, a row per chain</source>
        <translation>Wochenzeitleiste, eine Zeile je Kette</translation>
    </message>
    <message>
        <source>Scrolls over every chain; the table below lists the same fires one by one</source>
        <translation>Blättert über alle Ketten; die Tabelle darunter listet dieselben Auslösungen einzeln auf</translation>
    </message>
    <message>
        <source>Reading the fire times…</source>
        <translation>Die Auslösezeiten werden gelesen…</translation>
    </message>
    <message>
        <source>Left of the red line, since yesterday: what became of each fire time (a run in its state&apos;s colour; missed, skipped and excluded hatched). Right of it, the coming week: each tick is a fire time; a hatched band is a schedule too frequent to draw each fire.</source>
        <translation>Links der roten Linie, seit gestern: was aus jeder Auslösezeit wurde (ein Lauf in der Farbe seines Zustands; versäumt, übersprungen und ausgeschlossen schraffiert). Rechts davon die kommende Woche: jeder Strich ist eine Auslösezeit; ein schraffiertes Band ist ein Zeitplan, der zu häufig auslöst, um jede Auslösung einzeln zu zeichnen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Schedules are paused:&lt;/b&gt; none of these fires until you resume (Chain → Pause all schedules, Ctrl+Shift+P). </source>
        <translation>&lt;b&gt;Zeitpläne sind pausiert:&lt;/b&gt; Keiner davon löst aus, bis sie fortgesetzt werden (Kette → Alle Zeitpläne pausieren, Strg+Umschalt+P). </translation>
    </message>
    <message numerus="yes">
        <source>The table lists at most %1 fire times of each schedule: %n schedule(s) fire more often this week (hatched in the timeline).</source>
        <translation>
            <numerusform>Die Tabelle zeigt höchstens %1 Auslösezeiten je Zeitplan: %n Zeitplan löst diese Woche öfter aus (im Zeitstrahl schraffiert).</numerusform>
            <numerusform>Die Tabelle zeigt höchstens %1 Auslösezeiten je Zeitplan: %n Zeitpläne lösen diese Woche öfter aus (im Zeitstrahl schraffiert).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hg::UpcomingTimeline</name>
    <message>
        <source>Week timeline</source>
        <translation>Zeitleiste der Woche</translation>
    </message>
    <message>
        <source>A row per chain. Since yesterday: %1. The coming week: a tick per fire time; the table below lists them.</source>
        <translation>Eine Zeile je Kette. Seit gestern: %1. Die kommende Woche: ein Strich je Auslösezeit; die Tabelle darunter listet sie auf.</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
    <message>
        <source>Nothing ran since yesterday and nothing is scheduled in the coming week.</source>
        <translation>Seit gestern lief nichts, und in der kommenden Woche ist nichts geplant.</translation>
    </message>
    <message>
        <source>Reading the fire times…</source>
        <translation>Die Auslösezeiten werden gelesen…</translation>
    </message>
</context>
<context>
    <name>hg::WebhookSender</name>
    <message>
        <source>the webhook&apos;s URL is kept as a secret, and none is kept: add the channel again</source>
        <translation>die URL des Webhooks wird als Geheimnis aufbewahrt, und es ist keine gespeichert: fügen Sie den Kanal erneut hinzu</translation>
    </message>
    <message>
        <source>libcurl could not start a transfer</source>
        <translation>libcurl konnte keine Übertragung beginnen</translation>
    </message>
    <message>
        <source> (Retry-After: %1)</source>
        <translation> (Retry-After: %1)</translation>
    </message>
    <message>
        <source>HTTP %1 (the answer&apos;s body did not arrive: %2)</source>
        <translation>HTTP %1 (der Inhalt der Antwort kam nicht an: %2)</translation>
    </message>
</context>
<context>
    <name>hg::WebhookTriggerSpec</name>
    <message>
        <source>a hook&apos;s id is 24 hex digits</source>
        <translation>die ID eines Hooks besteht aus 24 Hex-Ziffern</translation>
    </message>
    <message>
        <source>--header: %1 headers at most</source>
        <translation>--header: höchstens %1 Header</translation>
    </message>
    <message>
        <source>--header: &apos;%1&apos; is not a header&apos;s name</source>
        <translation>--header: &apos;%1&apos; ist kein Header-Name</translation>
    </message>
    <message>
        <source>--header: %1 carries a credential and never reaches a run</source>
        <translation>--header: %1 trägt Zugangsdaten und erreicht nie einen Lauf</translation>
    </message>
</context>
<context>
    <name>hg::WindowsTaskImporter</name>
    <message>
        <source>not readable XML: %1</source>
        <translation>kein lesbares XML: %1</translation>
    </message>
    <message>
        <source>not a Task Scheduler task: the document is &lt;%1&gt;, not &lt;Task&gt;</source>
        <translation>keine Aufgabe der Aufgabenplanung: das Dokument ist &lt;%1&gt;, nicht &lt;Task&gt;</translation>
    </message>
    <message>
        <source>From %1</source>
        <translation>Aus %1</translation>
    </message>
    <message>
        <source>no Exec action: nothing Hourglass could run</source>
        <translation>keine Exec-Aktion: nichts, was Hourglass ausführen könnte</translation>
    </message>
    <message>
        <source>no schedule</source>
        <translation>kein Zeitplan</translation>
    </message>
    <message>
        <source>stopping the running instance for a new one has no counterpart: a new run is skipped while one runs</source>
        <translation>das Beenden der laufenden Instanz für eine neue hat keine Entsprechung: ein neuer Lauf wird übersprungen, solange einer läuft</translation>
    </message>
    <message>
        <source>runs on battery power too</source>
        <translation>läuft auch im Akkubetrieb</translation>
    </message>
    <message>
        <source>does not stop it on battery power</source>
        <translation>hält sie im Akkubetrieb nicht an</translation>
    </message>
    <message>
        <source>does not wait for the computer to be idle</source>
        <translation>wartet nicht, bis der Computer im Leerlauf ist</translation>
    </message>
    <message>
        <source>cannot wake the computer to run</source>
        <translation>kann den Computer nicht zum Ausführen aufwecken</translation>
    </message>
    <message>
        <source>Hourglass %1</source>
        <translation>Hourglass %1</translation>
    </message>
    <message>
        <source>Hourglass runs tasks with its engine&apos;s rights, never raised</source>
        <translation>Hourglass führt Aufgaben mit den Rechten seiner Engine aus, nie mit erhöhten</translation>
    </message>
    <message>
        <source>Hourglass runs it as the user of its engine</source>
        <translation>Hourglass führt sie als Benutzer seiner Engine aus</translation>
    </message>
    <message>
        <source>runs when the engine starts: the delay is not kept</source>
        <translation>läuft beim Start der Engine: die Verzögerung entfällt</translation>
    </message>
    <message>
        <source>a logon is taken as the engine&apos;s start</source>
        <translation>eine Anmeldung gilt als Start der Engine</translation>
    </message>
    <message>
        <source>a random start delay has no counterpart</source>
        <translation>eine zufällige Startverzögerung hat keine Entsprechung</translation>
    </message>
    <message>
        <source>an interval of &apos;%1&apos; is not whole minutes</source>
        <translation>ein Intervall von „%1“ sind keine ganzen Minuten</translation>
    </message>
    <message>
        <source>a repetition for part of the day on chosen days has no cron form</source>
        <translation>eine Wiederholung für einen Teil des Tages an ausgewählten Tagen hat keine cron-Form</translation>
    </message>
    <message>
        <source>repeating every %1 min from minute %2 of the hour has no cron form</source>
        <translation>eine Wiederholung alle %1 Min. ab Minute %2 der Stunde hat keine cron-Form</translation>
    </message>
    <message>
        <source>a duration of &apos;%1&apos; from %2 does not end on a whole hour of the same day</source>
        <translation>eine Dauer von „%1“ ab %2 endet nicht zu einer vollen Stunde desselben Tages</translation>
    </message>
    <message>
        <source>an interval of &apos;%1&apos; divides neither the hour nor the day</source>
        <translation>ein Intervall von „%1“ teilt weder die Stunde noch den Tag</translation>
    </message>
    <message>
        <source>a calendar trigger needs a start time</source>
        <translation>ein Kalenderauslöser braucht eine Startzeit</translation>
    </message>
    <message>
        <source>every %1 days counts from the start date; cron has no such cadence</source>
        <translation>alle %1 Tage zählt ab dem Startdatum; cron kennt keinen solchen Takt</translation>
    </message>
    <message>
        <source>every %1 weeks counts from the start date; cron has no such cadence</source>
        <translation>alle %1 Wochen zählt ab dem Startdatum; cron kennt keinen solchen Takt</translation>
    </message>
    <message>
        <source>no days to fire on</source>
        <translation>keine Tage zum Auslösen</translation>
    </message>
    <message>
        <source>a time trigger needs a start time</source>
        <translation>ein Zeitauslöser braucht eine Startzeit</translation>
    </message>
    <message>
        <source>repeating for part of one day only has no cron form</source>
        <translation>eine Wiederholung nur für einen Teil eines Tages hat keine cron-Form</translation>
    </message>
    <message>
        <source>&lt;%1&gt; has no counterpart; only &lt;Exec&gt; actions run</source>
        <translation>&lt;%1&gt; hat keine Entsprechung; nur &lt;Exec&gt;-Aktionen laufen</translation>
    </message>
    <message>
        <source>a Windows program: point the task at what runs here</source>
        <translation>ein Windows-Programm: die Aufgabe auf etwas richten, das hier läuft</translation>
    </message>
    <message>
        <source>true (the default of a task that leaves it out)</source>
        <translation>true (der Standardwert einer Aufgabe, die es weglässt)</translation>
    </message>
    <message>
        <source>the entity &amp;%1; stands for text this file does not hold (an external or undeclared entity)</source>
        <translation>die Entität &amp;%1; steht für Text, den diese Datei nicht enthält (eine externe oder nicht deklarierte Entität)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an e-mail address</source>
        <translation>„%1“ ist keine E-Mail-Adresse</translation>
    </message>
    <message>
        <source>the e-mail action names no recipient Hourglass can mail (1 to %1)</source>
        <translation>die E-Mail-Aktion nennt keinen Empfänger, den Hourglass anschreiben kann (1 bis %1)</translation>
    </message>
    <message>
        <source>each run that succeeds mails %1 through the default e-mail channel, with Hourglass&apos;s message (the action&apos;s subject and body are not kept)</source>
        <translation>jeder erfolgreiche Lauf schreibt %1 über den Standard-E-Mail-Kanal an, mit der Nachricht von Hourglass (Betreff und Text der Aktion werden nicht übernommen)</translation>
    </message>
    <message>
        <source>a desktop notification (the Notify builtin)</source>
        <translation>eine Desktop-Benachrichtigung (der eingebaute Befehl Notify)</translation>
    </message>
    <message>
        <source>on %1</source>
        <translation>bei %1</translation>
    </message>
    <message>
        <source>&lt;%1&gt; has no counterpart: Hourglass starts runs by time, at start-up, after other chains, on files, on desktop events or by hand</source>
        <translation>&lt;%1&gt; hat keine Entsprechung: Hourglass startet Läufe nach der Zeit, beim Start, nach anderen Ketten, bei Dateien, bei Desktop-Ereignissen oder von Hand</translation>
    </message>
    <message>
        <source>only SessionUnlock has a counterpart (a trigger on unlock)</source>
        <translation>nur SessionUnlock hat eine Entsprechung (ein Auslöser beim Entsperren)</translation>
    </message>
    <message>
        <source>the session the engine runs in is the one watched</source>
        <translation>beobachtet wird die Sitzung, in der die Engine läuft</translation>
    </message>
    <message>
        <source>the idle time is not a duration</source>
        <translation>die Leerlaufzeit ist keine Dauer</translation>
    </message>
    <message numerus="yes">
        <source>idle for %n minute(s): the desktop&apos;s idle hint counts minutes</source>
        <translation>
            <numerusform>%n Minute im Leerlauf: der Leerlaufhinweis des Desktops zählt Minuten</numerusform>
            <numerusform>%n Minuten im Leerlauf: der Leerlaufhinweis des Desktops zählt Minuten</numerusform>
        </translation>
    </message>
    <message>
        <source>the chain starts by its schedules and triggers only while the computer has a network</source>
        <translation>die Kette startet durch ihre Zeitpläne und Auslöser nur, solange der Rechner ein Netzwerk hat</translation>
    </message>
</context>
</TS>
