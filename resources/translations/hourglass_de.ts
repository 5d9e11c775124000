<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de" sourcelanguage="en">
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
    <name>hg::BuiltinArgumentForm</name>
    <message>
        <source>%1 takes no arguments.</source>
        <translation>%1 nimmt keine Argumente an.</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>(nicht gesetzt)</translation>
    </message>
</context>
<context>
    <name>hg::ChainEditor</name>
    <message>
        <source>Add &amp;task</source>
        <translation>Auf&amp;gabe hinzufügen</translation>
    </message>
    <message>
        <source>Add &amp;schedule…</source>
        <translation>&amp;Zeitplan hinzufügen…</translation>
    </message>
    <message>
        <source>Auto &amp;layout</source>
        <translation>Automatisch an&amp;ordnen</translation>
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
    <message>
        <source>Notify</source>
        <translation>Benachrichtigen</translation>
    </message>
    <message>
        <source>A run while one runs</source>
        <translation>Wenn bereits ein Lauf läuft</translation>
    </message>
    <message>
        <source>Schedules</source>
        <translation>Zeitpläne</translation>
    </message>
    <message numerus="yes">
        <source>Move %n task(s)</source>
        <translation>
            <numerusform>%n Aufgabe verschieben</numerusform>
            <numerusform>%n Aufgaben verschieben</numerusform>
        </translation>
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
        <translation>bei Fehlschlag und Wiederherstellung</translation>
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
        <source>&amp;Add…</source>
        <translation>Hin&amp;zufügen…</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>Bearbe&amp;iten…</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>Entfe&amp;rnen</translation>
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
        <source>N&amp;otify:</source>
        <translation>Benachrichti&amp;gen:</translation>
    </message>
    <message>
        <source>A run &amp;while one runs:</source>
        <translation>Wenn bereits ein Lauf l&amp;äuft:</translation>
    </message>
    <message>
        <source>When a run of this chain ends, whether to show a notification</source>
        <translation>Ob beim Ende eines Laufs dieser Kette eine Benachrichtigung erscheint</translation>
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
        <source>The chain&apos;s schedules: expression, meaning, zone, next fire, enabled</source>
        <translation>Die Zeitpläne der Kette: Ausdruck, Bedeutung, Zone, nächste Auslösung, aktiviert</translation>
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
    <name>hg::DesktopNotifier</name>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
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
    <name>hg::DurationBars</name>
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
    <name>hg::HelpDialogs</name>
    <message>
        <source>Apply the task form</source>
        <translation>Aufgabenformular übernehmen</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Wiederholen</translation>
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
    <name>hg::LogView</name>
    <message>
        <source>&amp;Follow</source>
        <translation>&amp;Folgen</translation>
    </message>
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
        <source>&amp;Copy</source>
        <translation>Ko&amp;pieren</translation>
    </message>
    <message>
        <source>&amp;Save…</source>
        <translation>&amp;Speichern…</translation>
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
        <source>Upcoming fire times</source>
        <translation>Anstehende Auslösezeiten</translation>
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
        <source>Import projects from a Hourglass export (hourglass export)</source>
        <translation>Projekte aus einem Hourglass-Export importieren (hourglass export)</translation>
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
        <source>C&amp;hain</source>
        <translation>Ke&amp;tte</translation>
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
    <message>
        <source>Import projects</source>
        <translation>Projekte importieren</translation>
    </message>
    <message>
        <source>Hourglass export (*.json);;All files (*)</source>
        <translation>Hourglass-Export (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importieren</translation>
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
        <source>Each tick is a fire time; a hatched band is a schedule too frequent to draw each fire.</source>
        <translation>Jeder Strich ist eine Auslösezeit; ein schraffiertes Band ist ein Zeitplan, der zu häufig auslöst, um jede Auslösung einzeln zu zeichnen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Schedules are paused:&lt;/b&gt; none of these fires until you resume (Chain → Pause all schedules, Ctrl+Shift+P). </source>
        <translation>&lt;b&gt;Zeitpläne sind pausiert:&lt;/b&gt; Keiner davon löst aus, bis sie fortgesetzt werden (Kette → Alle Zeitpläne pausieren, Strg+Umschalt+P). </translation>
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
        <source>Every fire of the coming week, by time</source>
        <translation>Jede Auslösung der kommenden Woche, nach Zeit</translation>
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
        <source>Open the chain</source>
        <translation>Die Kette öffnen</translation>
    </message>
    <message>
        <source>Last runs of %1</source>
        <translation>Letzte Läufe von %1</translation>
    </message>
    <message>
        <source>never ran</source>
        <translation>nie gelaufen</translation>
    </message>
    <message>
        <source>For each chain a bar per run, height by duration, colour by state</source>
        <translation>Für jede Kette ein Balken je Lauf, Höhe nach Dauer, Farbe nach Zustand</translation>
    </message>
    <message>
        <source>Enter or a double click opens the item</source>
        <translation>Eingabetaste oder Doppelklick öffnet den Eintrag</translation>
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
        <source>Scheduled for</source>
        <translation>Geplant für</translation>
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
        <source>T&amp;rigger:</source>
        <translation>Aus&amp;löser:</translation>
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
        <source>Enabled</source>
        <translation>Aktiviert</translation>
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
        <translation>Zeitlimit überschritten</translation>
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
        <source>One statement; ? marks bind the parameters below</source>
        <translation>Eine Anweisung; ?-Zeichen binden die Parameter unten</translation>
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
    <name>hg::UpcomingTimeline</name>
    <message>
        <source>Week timeline</source>
        <translation>Zeitleiste der Woche</translation>
    </message>
    <message>
        <source>A row per chain, a tick per fire time; the table below lists them</source>
        <translation>Eine Zeile pro Kette, ein Strich pro Auslösezeit; die Tabelle darunter listet sie auf</translation>
    </message>
    <message>
        <source>Nothing is scheduled in the coming week.</source>
        <translation>In der kommenden Woche ist nichts geplant.</translation>
    </message>
</context>
</TS>
