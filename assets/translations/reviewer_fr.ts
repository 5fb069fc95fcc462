<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>AcceptQuestion</name>
    <message>
        <location filename="../../ui/review/inline.py" line="47"/>
        <source>The filter would still refuse this attempt, so your accept would contradict the verdicts and checks that back-tests and agreement figures read:</source>
        <translation>Le filtre refuserait encore cet essai : votre acceptation contredirait les verdicts et contrôles que lisent les rejeux et les chiffres d&apos;accord :</translation>
    </message>
    <message>
        <location filename="../../ui/review/inline.py" line="51"/>
        <source>A: accept anyway   ·   F: flip the refusing verdicts (and mark the failed checks false positives), then accept   ·   Esc: do neither</source>
        <translation>A : accepter quand même   ·   F : inverser les verdicts qui refusent (et marquer les contrôles en échec comme faux positifs), puis accepter   ·   Échap : ni l&apos;un ni l&apos;autre</translation>
    </message>
</context>
<context>
    <name>AgreementDashboard</name>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="134"/>
        <source>Agreement dashboard</source>
        <translation>Tableau d&apos;accord</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="150"/>
        <source>cause</source>
        <translation>cause</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="150"/>
        <source>refusals</source>
        <translation>refus</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="150"/>
        <source>reviewed</source>
        <translation>relus</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="150"/>
        <source>overturned</source>
        <translation>renversés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="154"/>
        <source>between reviewers</source>
        <translation>entre relecteurs</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="154"/>
        <source>attempts</source>
        <translation>essais</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="154"/>
        <source>agreement</source>
        <translation>accord</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="158"/>
        <source>Refresh</source>
        <translation>Actualiser</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="175"/>
        <source>Refusals per cause</source>
        <translation>Refus par cause</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="178"/>
        <source>Agreement between reviewers (team mode)</source>
        <translation>Accord entre relecteurs (mode équipe)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="234"/>
        <source>Coverage unknown: no attempt the grader accepted has been audited, so the bad answers it let through are not counted. Audit a sample of accepted attempts.</source>
        <translation>Couverture inconnue : aucun essai accepté par le correcteur n&apos;a été audité, les mauvaises réponses qu&apos;il a laissé passer ne sont donc pas comptées. Auditez un échantillon d&apos;essais acceptés.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="246"/>
        <location filename="../../ui/tools/dashboard.py" line="286"/>
        <source>unknown</source>
        <translation>inconnu</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="247"/>
        <source>overall</source>
        <translation>global</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="255"/>
        <source>Conversations cut short by the filter: %1 (%2); by refusals the reviewer overturned: %3 (%4)</source>
        <translation>Conversations coupées par le filtre : %1 (%2) ; par des refus renversés à la relecture : %3 (%4)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/tools/dashboard.py" line="258"/>
        <location filename="../../ui/tools/dashboard.py" line="260"/>
        <source>%n turn(s) lost</source>
        <translation>
            <numerusform>%n tour perdu</numerusform>
            <numerusform>%n tours perdus</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="269"/>
        <source>all reviewers, decisions</source>
        <translation>tous les relecteurs, décisions</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="271"/>
        <source>all reviewers, %1</source>
        <translation>tous les relecteurs, %1</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="107"/>
        <source>labelled</source>
        <translation>étiquetées</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="108"/>
        <source>caught</source>
        <translation>détectées</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="109"/>
        <source>false failures</source>
        <translation>faux refus</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="110"/>
        <source>misses</source>
        <translation>manquées</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="111"/>
        <source>kappa</source>
        <translation>kappa</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="112"/>
        <source>false-failure rate</source>
        <translation>taux de faux refus</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="113"/>
        <source>coverage</source>
        <translation>couverture</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/tools/dashboard.py" line="242"/>
        <source>%n audited attempt(s) — kappa %2, false-failure rate %3, coverage %4</source>
        <translation>
            <numerusform>%n essai audité — kappa %2, taux de faux refus %3, couverture %4</numerusform>
            <numerusform>%n essais audités — kappa %2, taux de faux refus %3, couverture %4</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <location filename="../../ui/app.py" line="200"/>
        <source>Cannot open the database</source>
        <translation>Impossible d&apos;ouvrir la base de données</translation>
    </message>
    <message>
        <location filename="../../ui/app.py" line="198"/>
        <source>Cannot start</source>
        <translation>Démarrage impossible</translation>
    </message>
</context>
<context>
    <name>BacktestEditor</name>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="145"/>
        <source>Regex back-test</source>
        <translation>Rejeu d&apos;une expression régulière</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="174"/>
        <source>ECMAScript (JavaScript RegExp, as the filter)</source>
        <translation>ECMAScript (RegExp JavaScript, comme le filtre)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="176"/>
        <source>Python (regex package)</source>
        <translation>Python (paquet regex)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="178"/>
        <source>How the pattern is read. The team&apos;s filter is TypeScript: in JavaScript \b and \w are ASCII, so « é » ends a word.</source>
        <translation>Comment le motif est lu. Le filtre de l&apos;équipe est en TypeScript : en JavaScript, \b et \w sont ASCII, donc « é » termine un mot.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="181"/>
        <source>forbid (fails on a match)</source>
        <translation>interdit (échoue si elle trouve)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="182"/>
        <source>require (fails without a match)</source>
        <translation>exige (échoue si elle ne trouve pas)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="184"/>
        <source>require: only when the last user message matches</source>
        <translation>exige : seulement si le dernier message de la personne correspond</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="201"/>
        <source>Why this change (one line, required to save)</source>
        <translation>Pourquoi ce changement (une ligne, obligatoire pour enregistrer)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="202"/>
        <source>Save as new version</source>
        <translation>Enregistrer comme nouvelle version</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="205"/>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="210"/>
        <source>Check</source>
        <translation>Contrôle</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="211"/>
        <source>Current</source>
        <translation>Actuel</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="212"/>
        <source>Pattern</source>
        <translation>Motif</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="217"/>
        <source>Flags, mode, dialect</source>
        <translation>Options, mode, dialecte</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="218"/>
        <source>When</source>
        <translation>Quand</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="220"/>
        <source>Hits that disappear</source>
        <translation>Résultats qui disparaissent</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="221"/>
        <source>Hits that appear</source>
        <translation>Résultats qui apparaissent</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="345"/>
        <source>Back-testing…</source>
        <translation>Rejeu en cours…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="364"/>
        <source>Holes in the new pattern:</source>
        <translation>Trous du nouveau motif :</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="379"/>
        <source>Agreement with the reviewers on %1 labelled attempts</source>
        <translation>Accord avec les relecteurs sur %1 essais étiquetés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="381"/>
        <source>current</source>
        <translation>actuel</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="382"/>
        <source>new</source>
        <translation>nouveau</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="482"/>
        <source>Saved %1 v%2</source>
        <translation>%1 v%2 enregistré</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="502"/>
        <source>Re-checking %1 v%2 on the stored responses: %3 / %4</source>
        <translation>Nouveau contrôle de %1 v%2 sur les réponses enregistrées : %3 / %4</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="537"/>
        <source>Re-checking %1 v%2 stopped after %3 of %4 attempts</source>
        <translation>Nouveau contrôle de %1 v%2 arrêté après %3 essais sur %4</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="539"/>
        <source>%1 v%2 evaluated on %4 stored responses: %5 the old version refused now pass, %6 now fail</source>
        <translation>%1 v%2 évalué sur %4 réponses enregistrées : %5 refusées par l&apos;ancienne version passent désormais, %6 échouent désormais</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="387"/>
        <source>n/a</source>
        <translation>n.d.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="373"/>
        <source>%1: %2 → %3 failing; %4, %5</source>
        <translation>%1 : %2 → %3 en échec ; %4, %5</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/tools/backtest_editor.py" line="374"/>
        <source>%n attempt(s)</source>
        <translation>
            <numerusform>%n essai</numerusform>
            <numerusform>%n essais</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/tools/backtest_editor.py" line="376"/>
        <source>%n hit(s) gone</source>
        <translation>
            <numerusform>%n résultat disparu</numerusform>
            <numerusform>%n résultats disparus</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/tools/backtest_editor.py" line="377"/>
        <source>%n new hit(s)</source>
        <translation>
            <numerusform>%n nouveau résultat</numerusform>
            <numerusform>%n nouveaux résultats</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/tools/backtest_editor.py" line="394"/>
        <source>%n hit(s) on accepted</source>
        <translation>
            <numerusform>%n occurrence sur les acceptées</numerusform>
            <numerusform>%n occurrences sur les acceptées</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/tools/backtest_editor.py" line="395"/>
        <source>%n miss(es) on refused</source>
        <translation>
            <numerusform>%n manquée sur les refusées</numerusform>
            <numerusform>%n manquées sur les refusées</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/tools/backtest_editor.py" line="396"/>
        <source>%n confirmed hit(s)</source>
        <translation>
            <numerusform>%n occurrence confirmée</numerusform>
            <numerusform>%n occurrences confirmées</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="399"/>
        <source>false-failure rate %1, coverage %2, kappa %3</source>
        <translation>taux de faux refus %1, couverture %2, kappa %3</translation>
    </message>
</context>
<context>
    <name>BulkDialog</name>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="84"/>
        <source>Bulk action</source>
        <translation>Action groupée</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="100"/>
        <source>Apply</source>
        <translation>Appliquer</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="113"/>
        <source>Attempts</source>
        <translation>Essais</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="115"/>
        <source>Every attempt of the &amp;filter</source>
        <translation>Tous les essais du &amp;filtre</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/bulk_dialog.py" line="118"/>
        <source>The %n &amp;selected rows</source>
        <translation>
            <numerusform>&amp;Sélection : %n ligne</numerusform>
            <numerusform>&amp;Sélection : %n lignes</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="126"/>
        <source>Action</source>
        <translation>Action</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="132"/>
        <source>&amp;Accept</source>
        <translation>&amp;Accepter</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="133"/>
        <source>&amp;Reject</source>
        <translation>&amp;Rejeter</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="134"/>
        <source>F&amp;lip criterion (against the judge)</source>
        <translation>&amp;Inverser le critère (contre le juge)</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="135"/>
        <source>Mark the check&apos;s hit as a false &amp;positive</source>
        <translation>Marquer l&apos;alerte du contrôle comme faux &amp;positif</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="152"/>
        <source>Preview (nothing is stored before Apply)</source>
        <translation>Aperçu (rien n&apos;est enregistré avant Appliquer)</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="158"/>
        <source>Attempt</source>
        <translation>Essai</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="158"/>
        <source>Change</source>
        <translation>Modification</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="158"/>
        <source>The filter would then</source>
        <translation>Le filtre aurait alors</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="250"/>
        <source>Previewing…</source>
        <translation>Aperçu en cours…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/bulk_dialog.py" line="265"/>
        <source>… and %n more</source>
        <translation>
            <numerusform>… et %n autre</numerusform>
            <numerusform>… et %n autres</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="271"/>
        <source>Nothing to change.</source>
        <translation>Rien à modifier.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/bulk_dialog.py" line="272"/>
        <source>%n attempts in the scope</source>
        <translation>
            <numerusform>%n essai concerné</numerusform>
            <numerusform>%n essais concernés</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/bulk_dialog.py" line="281"/>
        <source>%n of them are still refused by the filter: your decision does not flip a verdict or a check</source>
        <translation>
            <numerusform>%n d&apos;entre eux reste refusé par le filtre : votre décision n&apos;inverse ni verdict ni contrôle</numerusform>
            <numerusform>%n d&apos;entre eux restent refusés par le filtre : votre décision n&apos;inverse ni verdict ni contrôle</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/bulk_dialog.py" line="285"/>
        <source>The filter would then accept %n of them</source>
        <translation>
            <numerusform>Le filtre accepterait alors %n d&apos;entre eux</numerusform>
            <numerusform>Le filtre accepterait alors %n d&apos;entre eux</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/bulk_dialog.py" line="292"/>
        <source>%n already accepted: left alone</source>
        <translation>
            <numerusform>%n déjà accepté : laissé tel quel</numerusform>
            <numerusform>%n déjà acceptés : laissés tels quels</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/bulk_dialog.py" line="293"/>
        <source>%n already rejected: left alone</source>
        <translation>
            <numerusform>%n déjà rejeté : laissé tel quel</numerusform>
            <numerusform>%n déjà rejetés : laissés tels quels</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/bulk_dialog.py" line="294"/>
        <source>%n without a verdict on this criterion: left alone</source>
        <translation>
            <numerusform>%n sans verdict sur ce critère : laissé tel quel</numerusform>
            <numerusform>%n sans verdict sur ce critère : laissés tels quels</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/bulk_dialog.py" line="296"/>
        <source>%n already flipped: left alone</source>
        <translation>
            <numerusform>%n déjà inversé : laissé tel quel</numerusform>
            <numerusform>%n déjà inversés : laissés tels quels</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/bulk_dialog.py" line="297"/>
        <source>%n where this check did not fail: left alone</source>
        <translation>
            <numerusform>%n où ce contrôle n&apos;a pas échoué : laissé tel quel</numerusform>
            <numerusform>%n où ce contrôle n&apos;a pas échoué : laissés tels quels</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/bulk_dialog.py" line="299"/>
        <source>%n already marked: left alone</source>
        <translation>
            <numerusform>%n déjà marqué : laissé tel quel</numerusform>
            <numerusform>%n déjà marqués : laissés tels quels</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="321"/>
        <source>accept</source>
        <translation>accepter</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="321"/>
        <source>reject</source>
        <translation>rejeter</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="322"/>
        <source>no decision</source>
        <translation>pas de décision</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="325"/>
        <source>yes</source>
        <translation>oui</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="325"/>
        <source>no</source>
        <translation>non</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="327"/>
        <source>%1: %2 → %3</source>
        <translation>%1 : %2 → %3</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="330"/>
        <source>%1: failed → false positive</source>
        <translation>%1 : échoué → faux positif</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="334"/>
        <source>accepted</source>
        <translation>accepté</translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="334"/>
        <source>refused</source>
        <translation>refusé</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/bulk_dialog.py" line="351"/>
        <source>Applying to %n attempts…</source>
        <translation>
            <numerusform>Application à %n essai…</numerusform>
            <numerusform>Application à %n essais…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="352"/>
        <source>This cannot be stopped now: the dialog closes once they are stored, and %1 then takes them back.</source>
        <translation>Ce n’est plus interruptible : la fenêtre se ferme une fois les essais enregistrés, et %1 les reprend ensuite.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/bulk_dialog.py" line="358"/>
        <source>Bulk action on %n attempts</source>
        <translation>
            <numerusform>Action groupée sur %n essai</numerusform>
            <numerusform>Action groupée sur %n essais</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/review/bulk_dialog.py" line="382"/>
        <source>The attempts changed since the preview: nothing was stored. Here is the new preview.</source>
        <translation>Les essais ont changé depuis l&apos;aperçu : rien n&apos;a été enregistré. Voici le nouvel aperçu.</translation>
    </message>
</context>
<context>
    <name>CalibrationKeys</name>
    <message>
        <location filename="../../ui/tools/calibration_keys.py" line="29"/>
        <source>Score the answer 1–5</source>
        <translation>Noter la réponse de 1 à 5</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration_keys.py" line="31"/>
        <source>Clear its score</source>
        <translation>Effacer sa note</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration_keys.py" line="32"/>
        <source>Next answer</source>
        <translation>Réponse suivante</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration_keys.py" line="33"/>
        <source>Previous answer</source>
        <translation>Réponse précédente</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration_keys.py" line="35"/>
        <source>Move the answer up in your ranking</source>
        <translation>Monter la réponse dans votre classement</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration_keys.py" line="37"/>
        <source>Move the answer down in your ranking</source>
        <translation>Descendre la réponse dans votre classement</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration_keys.py" line="39"/>
        <source>Store the ranking (best first)</source>
        <translation>Enregistrer le classement (la meilleure en premier)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration_keys.py" line="40"/>
        <source>Next group</source>
        <translation>Groupe suivant</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration_keys.py" line="41"/>
        <source>Previous group</source>
        <translation>Groupe précédent</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration_keys.py" line="42"/>
        <source>Next unscored group</source>
        <translation>Groupe suivant non noté</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration_keys.py" line="43"/>
        <source>Open a grading file</source>
        <translation>Ouvrir un fichier d&apos;évaluation</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration_keys.py" line="44"/>
        <source>Run the judge</source>
        <translation>Lancer le juge</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration_keys.py" line="45"/>
        <source>Close the window</source>
        <translation>Fermer la fenêtre</translation>
    </message>
</context>
<context>
    <name>CalibrationWindow</name>
    <message>
        <location filename="../../ui/tools/calibration.py" line="153"/>
        <source>Calibration</source>
        <translation>Calibrage</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="165"/>
        <source>Open a grading file…</source>
        <translation>Ouvrir un fichier d&apos;évaluation…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="169"/>
        <source>Grading file</source>
        <translation>Fichier d&apos;évaluation</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="188"/>
        <source>This group</source>
        <translation>Ce groupe</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="197"/>
        <source>Grader</source>
        <translation>Évaluateur</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="197"/>
        <source>Pairwise accuracy</source>
        <translation>Exactitude par paires</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="197"/>
        <source>Kendall τ-b</source>
        <translation>τ-b de Kendall</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="198"/>
        <source>Groups</source>
        <translation>Groupes</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="198"/>
        <source>Skipped</source>
        <translation>Ignorés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="198"/>
        <source>Inverted pairs</source>
        <translation>Paires inversées</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="211"/>
        <source>Debias: mean over the orders</source>
        <translation>Corriger : moyenne sur les ordres</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="213"/>
        <location filename="../../ui/tools/calibration.py" line="574"/>
        <location filename="../../ui/tools/calibration.py" line="584"/>
        <source>Run the judge</source>
        <translation>Lancer le juge</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="219"/>
        <source>Orders</source>
        <translation>Ordres</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="224"/>
        <source>Agreement over the groups you finished</source>
        <translation>Accord sur les groupes que vous avez terminés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="266"/>
        <source>%1 (%2, %3)</source>
        <translation>%1 (%2, %3)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/tools/calibration.py" line="267"/>
        <source>%n answer(s)</source>
        <translation>
            <numerusform>%n réponse</numerusform>
            <numerusform>%n réponses</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/tools/calibration.py" line="268"/>
        <source>%n group(s)</source>
        <translation>
            <numerusform>%n groupe</numerusform>
            <numerusform>%n groupes</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="271"/>
        <source>Open a grading file (Ctrl+O): the JSONL of reviewer grade, one answer per line.</source>
        <translation>Ouvrez un fichier d&apos;évaluation (Ctrl+O) : le JSONL de reviewer grade, une réponse par ligne.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="286"/>
        <source>Open a grading file</source>
        <translation>Ouvrir un fichier d&apos;évaluation</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="289"/>
        <source>Grading files (*.jsonl)</source>
        <translation>Fichiers d&apos;évaluation (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="289"/>
        <source>All files (*)</source>
        <translation>Tous les fichiers (*)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="306"/>
        <source>Opening %1…</source>
        <translation>Ouverture de %1…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="389"/>
        <source>%1; the window stays open</source>
        <translation>%1 ; la fenêtre reste ouverte</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="408"/>
        <source>Ranking of group %1</source>
        <translation>Classement du groupe %1</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="410"/>
        <source>Clearing the score of answer %1 of group %2</source>
        <translation>Effacement de la note de la réponse %1 du groupe %2</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="412"/>
        <source>Score %1 for answer %2 of group %3</source>
        <translation>Note %1 de la réponse %2 du groupe %3</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="420"/>
        <source>Ranking of group %1 not stored: %2</source>
        <translation>Classement du groupe %1 non enregistré : %2</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="423"/>
        <source>Score of answer %1 of group %2 not cleared: %3</source>
        <translation>Note de la réponse %1 du groupe %2 non effacée : %3</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="425"/>
        <source>Score %1 for answer %2 of group %3 not stored: %4</source>
        <translation>Note %1 de la réponse %2 du groupe %3 non enregistrée : %4</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="447"/>
        <source>Closing once the scores being stored are answered…</source>
        <translation>La fenêtre se ferme dès que les notes en cours d’enregistrement sont traitées…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="525"/>
        <source>no judge configured (Settings: Ollama host and model)</source>
        <translation>aucun juge configuré (Réglages : hôte et modèle Ollama)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="534"/>
        <source>%1 groups × up to %2 orders = %3 judge calls</source>
        <translation>%1 groupes × jusqu&apos;à %2 ordres = %3 appels au juge</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="562"/>
        <source>Stop the judge</source>
        <translation>Arrêter le juge</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="563"/>
        <source>Judging…</source>
        <translation>Évaluation par le juge…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="569"/>
        <source>Judged %1 of %2 groups</source>
        <translation>%1 groupes sur %2 jugés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="577"/>
        <source>The judge noted %1 groups</source>
        <translation>Le juge a noté %1 groupes</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="608"/>
        <source>Prompt: %1</source>
        <translation>Prompt : %1</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="609"/>
        <source>Reference: %1</source>
        <translation>Référence : %1</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="611"/>
        <source>Group %1 of %2: %3 — %4 of %2 finished</source>
        <translation>Groupe %1 sur %2 : %3 — %4 sur %2 terminés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="626"/>
        <source>Answer</source>
        <translation>Réponse</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="626"/>
        <source>Text</source>
        <translation>Texte</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="626"/>
        <source>You</source>
        <translation>Vous</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="628"/>
        <source>Your advantage</source>
        <translation>Votre avantage</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="630"/>
        <source>%1 adv.</source>
        <translation>avantage %1</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="668"/>
        <source>reference without any figure</source>
        <translation>référence sans aucun chiffre</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="669"/>
        <source>no expected value</source>
        <translation>pas de valeur attendue</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="670"/>
        <source>no reference</source>
        <translation>pas de référence</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="671"/>
        <source>not judged</source>
        <translation>pas jugé</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="676"/>
        <source>%1 above %2 (you: %2 above %1)</source>
        <translation>%1 au-dessus de %2 (vous : %2 au-dessus de %1)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="684"/>
        <source>Ranking changed: Enter stores it (best first).</source>
        <translation>Classement modifié : Entrée l&apos;enregistre (la meilleure en premier).</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="686"/>
        <source>Score the %1 answers left (1–5), or rank them (Alt+↑/↓, then Enter): the graders&apos; scores show once the group is scored.</source>
        <translation>Notez les %1 réponses restantes (1 à 5), ou classez-les (Alt+↑/↓, puis Entrée) : les scores des évaluateurs s&apos;affichent une fois le groupe noté.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="690"/>
        <source>Group scored: the graders&apos; scores are beside yours.</source>
        <translation>Groupe noté : les scores des évaluateurs sont à côté des vôtres.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="698"/>
        <source>Skip this group: %1</source>
        <translation>Ignorent ce groupe : %1</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="702"/>
        <source>%1 inverts: %2</source>
        <translation>%1 inverse : %2</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="706"/>
        <source>Judge on this group: position consistency %1 over %2 orders; score spread %3</source>
        <translation>Juge sur ce groupe : cohérence de position %1 sur %2 ordres ; écart des scores %3</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="726"/>
        <source>Judge position consistency: run the judge in 2 or more orders.</source>
        <translation>Cohérence de position du juge : lancez le juge dans 2 ordres ou plus.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="728"/>
        <source>Judge position consistency: needs 2 or more orders.</source>
        <translation>Cohérence de position du juge : il faut 2 ordres ou plus.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="731"/>
        <source>Judge position consistency: %1 (share of answer pairs ordered alike in every order; 1 = the order never mattered)</source>
        <translation>Cohérence de position du juge : %1 (part des paires de réponses classées pareil dans tous les ordres ; 1 = l&apos;ordre n&apos;a jamais compté)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="737"/>
        <source>Finish a group to compare the graders with you.</source>
        <translation>Terminez un groupe pour comparer les évaluateurs avec vous.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="739"/>
        <source>No grader can be compared yet: give the answers of a group different scores.</source>
        <translation>Aucun évaluateur ne peut encore être comparé : donnez des notes différentes aux réponses d&apos;un groupe.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="741"/>
        <source>Groups finished: %1. Best agreement: %2 (pairwise accuracy %3).</source>
        <translation>Groupes terminés : %1. Meilleur accord : %2 (exactitude par paires %3).</translation>
    </message>
</context>
<context>
    <name>CheckModel</name>
    <message>
        <location filename="../../ui/review/example_models.py" line="342"/>
        <source>Check</source>
        <translation>Contrôle</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="342"/>
        <source>Mode</source>
        <translation>Mode</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="342"/>
        <source>Result</source>
        <translation>Résultat</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="342"/>
        <source>Matches</source>
        <translation>Correspondances</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="343"/>
        <source>Description</source>
        <translation>Description</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="348"/>
        <source>The deterministic check (hover a name for its pattern).</source>
        <translation>Le contrôle déterministe (survolez un nom pour voir son motif).</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="349"/>
        <source>forbid: the answer fails when the pattern matches; require: when it does not.</source>
        <translation>interdit : la réponse échoue si le motif la trouve ; exige : s&apos;il ne la trouve pas.</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="351"/>
        <source>The check&apos;s result; F (or V, then Space on the row) marks a failed check a false positive.</source>
        <translation>Le résultat du contrôle ; F (ou V, puis Espace sur la ligne) marque un contrôle en échec comme faux positif.</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="353"/>
        <source>What the pattern matched in the answer (highlighted there too).</source>
        <translation>Ce que le motif a trouvé dans la réponse (surligné aussi dans la réponse).</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="354"/>
        <source>What the check is for.</source>
        <translation>À quoi sert le contrôle.</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="379"/>
        <source>forbid</source>
        <translation>interdit</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="379"/>
        <source>require</source>
        <translation>exige</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="382"/>
        <source>failed → false positive</source>
        <translation>échoué → faux positif</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="384"/>
        <source>passed</source>
        <translation>réussi</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="384"/>
        <source>failed</source>
        <translation>échoué</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="386"/>
        <source>v%1 passes</source>
        <translation>v%1 réussit</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="386"/>
        <source>v%1 fails</source>
        <translation>v%1 échoue</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="395"/>
        <source>and %1 more</source>
        <translation>et %1 de plus</translation>
    </message>
</context>
<context>
    <name>CriteriaEditor</name>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="81"/>
        <source>Criteria editor</source>
        <translation>Éditeur de critères</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="93"/>
        <source>Why this change (one line, required to save)</source>
        <translation>Pourquoi ce changement (une ligne, obligatoire pour enregistrer)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="94"/>
        <source>Save as new version</source>
        <translation>Enregistrer comme nouvelle version</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="95"/>
        <source>Re-judge touched attempts</source>
        <translation>Rejuger les essais concernés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="97"/>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="104"/>
        <source>attempt</source>
        <translation>essai</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="104"/>
        <source>verdict</source>
        <translation>verdict</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="105"/>
        <source>decision</source>
        <translation>décision</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="105"/>
        <source>new rationale</source>
        <translation>nouvelle raison</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="108"/>
        <source>Criterion</source>
        <translation>Critère</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="109"/>
        <source>Current</source>
        <translation>Actuel</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="110"/>
        <source>New text</source>
        <translation>Nouveau texte</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="111"/>
        <source>Reason</source>
        <translation>Raison</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="164"/>
        <source>Re-judge %1 touched attempts</source>
        <translation>Rejuger les %1 essais concernés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="177"/>
        <source>No judge configured</source>
        <translation>Aucun juge configuré</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="200"/>
        <source>Saved %1 v%2 — re-judge to see which verdicts flip</source>
        <translation>%1 v%2 enregistré — rejugez pour voir quels verdicts changent</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="217"/>
        <source>Re-judging %1…</source>
        <translation>Nouveau jugement de %1…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="247"/>
        <source>accepted</source>
        <translation>accepté</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="247"/>
        <source>refused</source>
        <translation>refusé</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="248"/>
        <source>unchanged</source>
        <translation>inchangé</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="258"/>
        <source>Re-judging failed: %1</source>
        <translation>Échec du nouveau jugement : %1</translation>
    </message>
</context>
<context>
    <name>EarlierConversation</name>
    <message>
        <location filename="../../ui/review/conversation_view.py" line="231"/>
        <source>Earlier conversation (%1 messages)</source>
        <translation>Conversation précédente (%1 messages)</translation>
    </message>
    <message>
        <location filename="../../ui/review/conversation_view.py" line="236"/>
        <source>Show %1 earlier messages (E) — %2 not shown</source>
        <translation>Afficher %1 messages plus anciens (E) — %2 non affichés</translation>
    </message>
    <message>
        <location filename="../../ui/review/conversation_view.py" line="240"/>
        <source>Hide the system prompt (P)</source>
        <translation>Masquer le prompt système (P)</translation>
    </message>
    <message>
        <location filename="../../ui/review/conversation_view.py" line="241"/>
        <source>System prompt, %1 characters: show it (P)</source>
        <translation>Prompt système, %1 caractères : l&apos;afficher (P)</translation>
    </message>
</context>
<context>
    <name>ExamplePane</name>
    <message>
        <location filename="../../ui/review/example_view.py" line="125"/>
        <source>Graded response</source>
        <translation>Réponse évaluée</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="209"/>
        <source>No attempt selected</source>
        <translation>Aucun essai sélectionné</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="230"/>
        <source>⚠ judge contradicts itself</source>
        <translation>⚠ le juge se contredit</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="338"/>
        <location filename="../../ui/review/example_view.py" line="359"/>
        <source>accepted</source>
        <translation>accepté</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="338"/>
        <location filename="../../ui/review/example_view.py" line="359"/>
        <source>refused</source>
        <translation>refusé</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="361"/>
        <source>Filter: %1</source>
        <translation>Filtre : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="344"/>
        <source>With second opinions and your overrides, the filter would now: %1</source>
        <translation>Avec les seconds avis et vos corrections, le filtre aurait maintenant : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="97"/>
        <source>Earlier conversation</source>
        <translation>Conversation précédente</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="119"/>
        <source>Question (the last user message)</source>
        <translation>Question (le dernier message de la personne)</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="146"/>
        <source>Why refused, and what now</source>
        <translation>Pourquoi refusé, et maintenant</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="165"/>
        <source>Judge verdicts (1–9 and 0 flip rows 1–10; V: a cursor on every row)</source>
        <translation>Verdicts du juge (1–9 et 0 inversent les lignes 1–10 ; V : un curseur sur chaque ligne)</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="182"/>
        <source>Deterministic checks (F marks a failed one a false positive)</source>
        <translation>Contrôles déterministes (F marque un contrôle en échec comme faux positif)</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="340"/>
        <source>With the current check versions, second opinions and your overrides, the filter would now: %1</source>
        <translation>Avec les versions actuelles des contrôles, les seconds avis et vos corrections, le filtre aurait maintenant : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="348"/>
        <source>changed</source>
        <translation>changé</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="352"/>
        <source>With the current check versions: %1</source>
        <translation>Avec les versions actuelles des contrôles : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="365"/>
        <location filename="../../ui/review/example_view.py" line="379"/>
        <source>accept</source>
        <translation>accepter</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="365"/>
        <location filename="../../ui/review/example_view.py" line="379"/>
        <source>reject</source>
        <translation>rejeter</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="366"/>
        <source>not reviewed yet</source>
        <translation>pas encore relu</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="367"/>
        <source>Your decision: %1</source>
        <translation>Votre décision : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="373"/>
        <source>Note: %1</source>
        <translation>Note : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="380"/>
        <source>no decision</source>
        <translation>pas de décision</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="383"/>
        <source>Other reviewers: %1</source>
        <translation>Autres relecteurs : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="401"/>
        <source>This refusal ended the conversation at turn %1.</source>
        <translation>Ce refus a arrêté la conversation au tour %1.</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="386"/>
        <source>Second opinion failed: %1</source>
        <translation>Échec du second avis : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="395"/>
        <source>This refusal ended the conversation at turn %1 of %2 planned (%3).</source>
        <translation>Ce refus a arrêté la conversation au tour %1 sur %2 prévus (%3).</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/example_view.py" line="399"/>
        <source>%n turn(s) lost</source>
        <translation>
            <numerusform>%n tour perdu</numerusform>
            <numerusform>%n tours perdus</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="412"/>
        <source>Against the reference: %1</source>
        <translation>Par rapport à la référence : %1</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="84"/>
        <location filename="../../ui/tools/export_dialog.py" line="112"/>
        <source>Export</source>
        <translation>Exporter</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="86"/>
        <source>Corrected dataset (JSONL)</source>
        <translation>Jeu de données corrigé (JSONL)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="87"/>
        <source>Preference pairs for DPO or KTO (JSONL)</source>
        <translation>Paires de préférence pour DPO ou KTO (JSONL)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="88"/>
        <source>Catalog with versions (JSON)</source>
        <translation>Catalogue avec versions (JSON)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="89"/>
        <source>Golden set for the filter&apos;s tests (JSONL)</source>
        <translation>Jeu de référence pour les tests du filtre (JSONL)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="90"/>
        <source>Conversations to resume (JSONL)</source>
        <translation>Conversations à reprendre (JSONL)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="91"/>
        <source>Audit trail (JSONL)</source>
        <translation>Journal d&apos;audit (JSONL)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="92"/>
        <source>Calibration scores with their grading files (JSONL)</source>
        <translation>Notes de calibrage avec leurs fichiers d&apos;évaluation (JSONL)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="101"/>
        <source>no split (one file)</source>
        <translation>pas de découpage (un seul fichier)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="131"/>
        <source>one example per assistant turn</source>
        <translation>un exemple par tour de l&apos;assistant</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="132"/>
        <source>one example per conversation</source>
        <translation>un exemple par conversation</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="134"/>
        <source>chat messages (OpenAI / Hugging Face)</source>
        <translation>messages de chat (OpenAI / Hugging Face)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="105"/>
        <source>Browse…</source>
        <translation>Parcourir…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="115"/>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="136"/>
        <source>prompt and completion (TRL)</source>
        <translation>invite et complétion (TRL)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="138"/>
        <source>keep every accepted attempt</source>
        <translation>garder chaque essai accepté</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="139"/>
        <source>keep the first accepted attempt</source>
        <translation>garder le premier essai accepté</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="140"/>
        <source>keep the last accepted attempt</source>
        <translation>garder le dernier essai accepté</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="142"/>
        <source>keep examples whose context holds a refused answer</source>
        <translation>garder les exemples dont le contexte contient une réponse refusée</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="144"/>
        <source>do not train the context&apos;s answers again (OpenAI weight 0)</source>
        <translation>ne pas réentraîner les réponses du contexte (poids 0 d&apos;OpenAI)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="148"/>
        <source>pairs for TRL DPO</source>
        <translation>paires pour DPO de TRL</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="149"/>
        <source>pairs for OpenAI DPO</source>
        <translation>paires pour DPO d&apos;OpenAI</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="150"/>
        <source>labels for TRL KTO</source>
        <translation>étiquettes pour KTO de TRL</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="152"/>
        <source>also the filter&apos;s refusals no reviewer overturned</source>
        <translation>aussi les refus du filtre qu&apos;aucun relecteur n&apos;a annulés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="154"/>
        <source>every cause (or e.g. E-INVENTE,G-TON)</source>
        <translation>toutes les causes (ou p. ex. E-INVENTE,G-TON)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="158"/>
        <source>What</source>
        <translation>Quoi</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="159"/>
        <source>Examples</source>
        <translation>Exemples</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="160"/>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="161"/>
        <source>Several accepted in a turn</source>
        <translation>Plusieurs acceptés dans un tour</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="164"/>
        <source>Pairs</source>
        <translation>Paires</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="166"/>
        <location filename="../../ui/tools/export_dialog.py" line="331"/>
        <source>Refusal causes</source>
        <translation>Causes de refus</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="169"/>
        <source>seed</source>
        <translation>graine</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="171"/>
        <source>Validation share</source>
        <translation>Part de validation</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="175"/>
        <source>File</source>
        <translation>Fichier</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="182"/>
        <source>What the review changed in the dataset:</source>
        <translation>Ce que la relecture a changé dans le jeu de données :</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="252"/>
        <location filename="../../ui/tools/export_dialog.py" line="254"/>
        <source>Export to</source>
        <translation>Exporter vers</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="278"/>
        <source>Counting…</source>
        <translation>Comptage…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="294"/>
        <source>Choose a file to write.</source>
        <translation>Choisissez un fichier à écrire.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="306"/>
        <source>Cannot write %1: it is a pipe or a device, and the app writes files only; nothing was written (reviewer export %2 %1 streams to it)</source>
        <translation>Impossible d’écrire %1 : c’est un tube ou un périphérique, et l’application n’écrit que des fichiers ; rien n’a été écrit (reviewer export %2 %1 y écrit en flux)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="312"/>
        <source>Exporting…</source>
        <translation>Export en cours…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="314"/>
        <source>export to %1</source>
        <translation>export vers %1</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="351"/>
        <source>Export failed: %1</source>
        <translation>Échec de l&apos;export : %1</translation>
    </message>
</context>
<context>
    <name>FilterBar</name>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="66"/>
        <source>Search responses and rationales (/)</source>
        <translation>Chercher dans les réponses et les raisons (/)</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="79"/>
        <source>Refused attempts</source>
        <translation>Essais refusés</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="80"/>
        <source>Audit: random accepted attempts</source>
        <translation>Audit : essais acceptés au hasard</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="83"/>
        <source>All runs</source>
        <translation>Toutes les générations</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="84"/>
        <source>Any criterion</source>
        <translation>Tout critère</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="85"/>
        <source>Any check</source>
        <translation>Tout contrôle</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="86"/>
        <source>All</source>
        <translation>Tous</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="86"/>
        <source>To review</source>
        <translation>À relire</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="86"/>
        <source>Reviewed</source>
        <translation>Relus</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="87"/>
        <source>Overridden</source>
        <translation>Corrigés</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="87"/>
        <source>Reviewed by others, not by me</source>
        <translation>Relus par d&apos;autres, pas par moi</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="90"/>
        <source>Contradictions only</source>
        <translation>Contradictions seulement</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="207"/>
        <source>No match for “%1”</source>
        <translation>Aucun résultat pour « %1 »</translation>
    </message>
</context>
<context>
    <name>FullTextWindow</name>
    <message>
        <location filename="../../ui/review/full_text.py" line="55"/>
        <source>Lines longer than %1 characters are shown in pieces of %1, one under the other.</source>
        <translation>Les lignes de plus de %1 caractères sont montrées en morceaux de %1, l’un sous l’autre.</translation>
    </message>
    <message>
        <location filename="../../ui/review/full_text.py" line="66"/>
        <source>Whole texts of %1</source>
        <translation>Textes entiers de %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/full_text.py" line="68"/>
        <source>Answer</source>
        <translation>Réponse</translation>
    </message>
    <message>
        <location filename="../../ui/review/full_text.py" line="70"/>
        <source>Question</source>
        <translation>Question</translation>
    </message>
    <message>
        <location filename="../../ui/review/full_text.py" line="72"/>
        <source>Rationale %1</source>
        <translation>Justification %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/full_text.py" line="75"/>
        <source>Second opinion %1</source>
        <translation>Second avis %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/full_text.py" line="84"/>
        <source>Your note</source>
        <translation>Votre note</translation>
    </message>
</context>
<context>
    <name>HelpOverlay</name>
    <message>
        <location filename="../../ui/review/dialogs.py" line="33"/>
        <source>Keyboard shortcuts</source>
        <translation>Raccourcis clavier</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="46"/>
        <source>Press any key to close.</source>
        <translation>Appuyez sur une touche pour fermer.</translation>
    </message>
</context>
<context>
    <name>JobStatus</name>
    <message>
        <location filename="../../ui/review/job_status.py" line="31"/>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>KeyQueue</name>
    <message>
        <location filename="../../ui/review/key_queue.py" line="150"/>
        <source>Not applied: %1 (%2)</source>
        <translation>Non appliqué : %1 (%2)</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../ui/review/window.py" line="892"/>
        <source>second opinions %v / %m</source>
        <translation>seconds avis %v / %m</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="68"/>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="69"/>
        <source>&amp;Edit</source>
        <translation>&amp;Édition</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="70"/>
        <source>&amp;Go</source>
        <translation>&amp;Aller</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="71"/>
        <source>&amp;Review</source>
        <translation>&amp;Relecture</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="72"/>
        <source>Toggle criterion</source>
        <translation>Inverser un critère</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="74"/>
        <source>&amp;Tools</source>
        <translation>&amp;Outils</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="75"/>
        <source>&amp;Help</source>
        <translation>Aid&amp;e</translation>
    </message>
    <message>
        <location filename="../../ui/review/action_builder.py" line="98"/>
        <source>Review</source>
        <translation>Relu</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="83"/>
        <source>Accept (A)</source>
        <translation>Accepter (A)</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="87"/>
        <source>Rescue (Shift+A)</source>
        <translation>Repêcher (Maj+A)</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="89"/>
        <source>Reject (R)</source>
        <translation>Rejeter (R)</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="95"/>
        <source>Note (N)</source>
        <translation>Note (N)</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="98"/>
        <source>False positive (F)</source>
        <translation>Faux positif (F)</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="110"/>
        <source>Second opinion (S)</source>
        <translation>Second avis (S)</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="113"/>
        <source>Second opinion: all flagged</source>
        <translation>Second avis : toutes les contradictions</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="142"/>
        <source>Undo</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="144"/>
        <source>Redo</source>
        <translation>Rétablir</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="148"/>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="469"/>
        <source>No attempt %1</source>
        <translation>Pas d&apos;essai %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="252"/>
        <source>End of the queue</source>
        <translation>Fin de la file</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="515"/>
        <source>Not applied, nothing was stored: %1 — %2 could not be read: %3</source>
        <translation>Non appliqué, rien n&apos;a été enregistré : %1 — %2 n&apos;a pas pu être lu : %3</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="532"/>
        <source>the attempt</source>
        <translation>l&apos;essai</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="600"/>
        <source>Reviewed %1 / %2 (%3 to review)</source>
        <translation>Relus %1 / %2 (%3 à relire)</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="169"/>
        <source>Reviewer — refused examples — %1</source>
        <translation>Reviewer — exemples refusés — %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="171"/>
        <source>%1 (read-only)</source>
        <translation>%1 (lecture seule)</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="254"/>
        <source>You have decided every attempt of this queue</source>
        <translation>Vous avez décidé tous les essais de cette file</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="256"/>
        <source>None left below: back to the first one not reviewed</source>
        <translation>Plus rien en dessous : retour au premier essai non relu</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="262"/>
        <source>Not applied: %1 (typed after a change that was not stored)</source>
        <translation>Non appliqué : %1 (tapé après une modification non enregistrée)</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="342"/>
        <source>Closed without waiting any longer for: %1; it may not have been stored</source>
        <translation>Fermée sans attendre plus longtemps : %1 ; ce n’est peut-être pas enregistré</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="344"/>
        <source>Closed without waiting any longer for the database; nothing was waiting to be stored</source>
        <translation>Fermée sans attendre plus longtemps la base de données ; rien n’attendait d’être enregistré</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="353"/>
        <source>%1 waiting for the database…</source>
        <translation>%1 en attente de la base de données…</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="374"/>
        <source>the queue changed before they could apply</source>
        <translation>la file a changé avant qu&apos;elles s&apos;appliquent</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="388"/>
        <source>the queue is empty</source>
        <translation>la file est vide</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="392"/>
        <source>No match for “%1”</source>
        <translation>Aucun résultat pour « %1 »</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="396"/>
        <source>No attempt in this queue under these filters</source>
        <translation>Aucune tentative dans cette file avec ces filtres</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="403"/>
        <source>the queue could not be read</source>
        <translation>la file n&apos;a pas pu être lue</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="418"/>
        <source>Reading the queue again…</source>
        <translation>Nouvelle lecture de la file…</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="596"/>
        <source>%1 to review in this filter</source>
        <translation>%1 à relire dans ce filtre</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="607"/>
        <source>%1 of %2 refusals reviewed, %3 left</source>
        <translation>%1 refus relus sur %2, %3 restants</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="656"/>
        <source>not applied: %1</source>
        <translation>non appliqué : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="682"/>
        <source>Not applied: %1 (the app is closing once the note is stored)</source>
        <translation>Non appliqué : %1 (l’application se ferme une fois la note enregistrée)</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="686"/>
        <source>Not applied: %1 (the app is closing)</source>
        <translation>Non appliqué : %1 (l’application se ferme)</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="719"/>
        <source>The app closes once the bulk action is stored (it cannot be stopped).</source>
        <translation>L’application se ferme une fois l’action groupée enregistrée (elle ne peut pas être interrompue).</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="773"/>
        <source>%1 — %2 to undo</source>
        <translation>%1 — %2 pour annuler</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="785"/>
        <source>The bulk action was not stored: the app stays open.</source>
        <translation>L’action groupée n’a pas été enregistrée : l’application reste ouverte.</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="802"/>
        <source>This store is read-only here: you can read it, and nothing you decide can be saved.</source>
        <translation>Cette base est en lecture seule ici : vous pouvez la lire, et rien de ce que vous décidez ne peut être enregistré.</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="810"/>
        <source>The reviewer name in the settings is not used (%1); deciding as %2 until you set a name in Settings.</source>
        <translation>Le nom de relecteur des réglages n’est pas utilisé (%1) ; décisions au nom de %2 jusqu’à ce que vous choisissiez un nom dans les Réglages.</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="875"/>
        <source>Deciding as %1 now</source>
        <translation>Décisions désormais au nom de %1</translation>
    </message>
</context>
<context>
    <name>NameRefused</name>
    <message>
        <location filename="../../ui/name_choice.py" line="60"/>
        <source>The reviewer name in Settings is refused</source>
        <translation>Le nom de relecteur des Réglages est refusé</translation>
    </message>
    <message>
        <location filename="../../ui/name_choice.py" line="63"/>
        <source>Decisions are stored under your name, never under another one: set a valid name (it is saved in Settings), or quit.</source>
        <translation>Les décisions sont enregistrées sous votre nom, jamais sous un autre : choisissez un nom valide (il est gardé dans les Réglages), ou quittez.</translation>
    </message>
    <message>
        <location filename="../../ui/name_choice.py" line="66"/>
        <source>Set a name…</source>
        <translation>Choisir un nom…</translation>
    </message>
    <message>
        <location filename="../../ui/name_choice.py" line="67"/>
        <source>Quit</source>
        <translation>Quitter</translation>
    </message>
</context>
<context>
    <name>NoteAtClose</name>
    <message>
        <location filename="../../ui/review/note_at_close.py" line="62"/>
        <source>Note on %1</source>
        <translation>Note sur %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/note_at_close.py" line="87"/>
        <source>Note on %1 not saved: %2</source>
        <translation>Note sur %1 non enregistrée : %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/note_at_close.py" line="95"/>
        <source>%1 — the app stays open: Esc drops the note, then quit again</source>
        <translation>%1 — l’application reste ouverte : Échap abandonne la note, puis quittez à nouveau</translation>
    </message>
</context>
<context>
    <name>NoteEditor</name>
    <message>
        <location filename="../../ui/review/inline.py" line="95"/>
        <source>Why you decided so (Enter saves, Esc cancels)</source>
        <translation>Pourquoi vous avez décidé ainsi (Entrée enregistre, Échap annule)</translation>
    </message>
</context>
<context>
    <name>PlainTextView</name>
    <message>
        <location filename="../../ui/review/text_widgets.py" line="138"/>
        <source>Showing the first %1 of %2 characters — W shows the whole text</source>
        <translation>Seuls les %1 premiers caractères sur %2 sont montrés — W montre le texte entier</translation>
    </message>
    <message>
        <location filename="../../ui/review/text_widgets.py" line="217"/>
        <source>Check matches: %1 highlighted, %2 not</source>
        <translation>Correspondances des contrôles : %1 surlignées, %2 non</translation>
    </message>
</context>
<context>
    <name>QueueModel</name>
    <message>
        <location filename="../../ui/review/queue_model.py" line="203"/>
        <source>Review</source>
        <translation>Relu</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="203"/>
        <source>Attempt</source>
        <translation>Essai</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="203"/>
        <source>Contradiction</source>
        <translation>Contradiction</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="204"/>
        <source>Why refused</source>
        <translation>Motif du refus</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="204"/>
        <source>The filter said</source>
        <translation>Décision du filtre</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="207"/>
        <source>Your decision: ✓ accepted, ✗ rejected, · not yet. ⚑: the judge contradicts itself on this attempt.</source>
        <translation>Votre décision : ✓ accepté, ✗ rejeté, · pas encore. ⚑ : le juge se contredit sur cet essai.</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="209"/>
        <source>Conversation · turn/attempt.</source>
        <translation>Conversation · tour/essai.</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="210"/>
        <source>How strongly a verdict&apos;s rationale says the opposite of the verdict (the detector&apos;s score, 0–1); the queue puts the highest first.</source>
        <translation>À quel point la raison d&apos;un verdict dit le contraire du verdict (le score du détecteur, de 0 à 1) ; la file met les plus élevés en premier.</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="213"/>
        <source>What the filter decided (these attempts were accepted).</source>
        <translation>Ce que le filtre a décidé (ces essais ont été acceptés).</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="214"/>
        <source>The filter&apos;s first reason for refusing; hover a row for all.</source>
        <translation>Le premier motif de refus du filtre ; survolez une ligne pour les voir tous.</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="258"/>
        <source>accepted by the filter</source>
        <translation>accepté par le filtre</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="261"/>
        <source>%1: old version refused, current version passes — %2</source>
        <translation>%1 : refusé par l&apos;ancienne version, la version actuelle passe — %2</translation>
    </message>
</context>
<context>
    <name>QuitWait</name>
    <message>
        <location filename="../../ui/review/quit_wait.py" line="93"/>
        <source>Closing once this is done (%1 s at most): %2</source>
        <translation>Fermeture une fois ceci terminé (%1 s au plus) : %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/quit_wait.py" line="96"/>
        <source>Closing once the database answers (%1 s at most)…</source>
        <translation>Fermeture dès que la base de données répond (%1 s au plus)…</translation>
    </message>
</context>
<context>
    <name>RateBars</name>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="84"/>
        <source>false-failure rate</source>
        <translation>taux de faux refus</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="87"/>
        <source>coverage</source>
        <translation>couverture</translation>
    </message>
</context>
<context>
    <name>ReviewCommands</name>
    <message>
        <location filename="../../ui/review/commands.py" line="119"/>
        <source>Nothing to %1</source>
        <translation>Rien à %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="159"/>
        <source>%1 not saved: %2</source>
        <translation>%1 non enregistré : %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="161"/>
        <source>not applied, typed after it: %1</source>
        <translation>non appliqué, tapé après : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="175"/>
        <source>%1 — %2 to undo</source>
        <translation>%1 — %2 pour annuler</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="188"/>
        <source>Accepted %1</source>
        <translation>%1 accepté</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="189"/>
        <source>Rejected %1</source>
        <translation>%1 rejeté</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="190"/>
        <source>Accept of %1</source>
        <translation>Acceptation de %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="191"/>
        <source>Reject of %1</source>
        <translation>Rejet de %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="204"/>
        <source>, replacing your %1 stored meanwhile elsewhere (another window or the command line)</source>
        <translation>, en remplacement de votre décision (%1) enregistrée entre-temps ailleurs (une autre fenêtre ou la ligne de commande)</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="206"/>
        <source>accept</source>
        <translation>acceptation</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="207"/>
        <source>reject</source>
        <translation>rejet</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="217"/>
        <location filename="../../ui/review/commands.py" line="228"/>
        <source>Nothing to rescue here: no open contradiction would change the filter&apos;s decision</source>
        <translation>Rien à repêcher ici : aucune contradiction ouverte ne changerait la décision du filtre</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="223"/>
        <source>Rescue of %1</source>
        <translation>Sauvetage de %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="230"/>
        <source>Rescued %1: flipped %2 and accepted</source>
        <translation>%1 repêché : %2 inversé, essai accepté</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="246"/>
        <source>Accepted %1, flipping %2</source>
        <translation>%1 accepté, en inversant %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="256"/>
        <source>No criterion %1 here</source>
        <translation>Pas de critère %1 ici</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="274"/>
        <source>%1 passed: there is no hit to mark</source>
        <translation>%1 a réussi : rien à marquer</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="292"/>
        <source>No failed check on this attempt</source>
        <translation>Aucun contrôle en échec sur cet essai</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="306"/>
        <source>Note saved</source>
        <translation>Note enregistrée</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="307"/>
        <source>Note on %1</source>
        <translation>Note sur %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="316"/>
        <source>undo</source>
        <translation>annuler</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="316"/>
        <source>Undone: %1</source>
        <translation>Annulé : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="317"/>
        <source>Undo of %1</source>
        <translation>Annulation de %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="317"/>
        <source>Undo</source>
        <translation>Annulation</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="324"/>
        <source>redo</source>
        <translation>rétablir</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="324"/>
        <source>Redone: %1</source>
        <translation>Rétabli : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="325"/>
        <source>Redo of %1</source>
        <translation>Rétablissement de %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="325"/>
        <source>Redo</source>
        <translation>Rétablissement</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="338"/>
        <source>Not undone: another window changed the undo history; nothing is left to undo.</source>
        <translation>Rien n’a été annulé : une autre fenêtre a modifié l’historique ; il ne reste rien à annuler.</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="340"/>
        <source>Not redone: another window changed the redo history; nothing is left to redo.</source>
        <translation>Rien n’a été rétabli : une autre fenêtre a modifié l’historique ; il ne reste rien à rétablir.</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="343"/>
        <source>Not undone: another window changed the undo history; the last change is now %1. Press %2 again to undo it.</source>
        <translation>Rien n’a été annulé : une autre fenêtre a modifié l’historique ; la dernière modification est maintenant %1. Appuyez de nouveau sur %2 pour l’annuler.</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="346"/>
        <source>Not redone: another window changed the redo history; the change to redo is now %1. Press %2 again to redo it.</source>
        <translation>Rien n’a été rétabli : une autre fenêtre a modifié l’historique ; la modification à rétablir est maintenant %1. Appuyez de nouveau sur %2 pour la rétablir.</translation>
    </message>
</context>
<context>
    <name>ReviewKeys</name>
    <message>
        <location filename="../../ui/review/review_keys.py" line="117"/>
        <source>Not undone: a note is open; Enter saves it, Esc drops it, then undo</source>
        <translation>Rien n’a été annulé : une note est ouverte ; Entrée l’enregistre, Échap l’abandonne, puis annulez</translation>
    </message>
    <message>
        <location filename="../../ui/review/review_keys.py" line="119"/>
        <source>Not redone: a note is open; Enter saves it, Esc drops it, then redo</source>
        <translation>Rien n’a été rétabli : une note est ouverte ; Entrée l’enregistre, Échap l’abandonne, puis rétablissez</translation>
    </message>
    <message>
        <location filename="../../ui/review/review_keys.py" line="175"/>
        <source>The note on %1 is %2 characters long, too long to edit here: W shows it whole, and reviewer decide KEY --note replaces it</source>
        <translation>La note sur %1 fait %2 caractères, trop pour être modifiée ici : W l’affiche en entier, et reviewer decide CLÉ --note la remplace</translation>
    </message>
    <message>
        <location filename="../../ui/review/review_keys.py" line="184"/>
        <source>No verdict or check on this attempt</source>
        <translation>Aucun verdict ni contrôle sur cet essai</translation>
    </message>
    <message>
        <location filename="../../ui/review/review_keys.py" line="188"/>
        <source>The whole conversation is shown</source>
        <translation>Toute la conversation est affichée</translation>
    </message>
    <message>
        <location filename="../../ui/review/review_keys.py" line="192"/>
        <source>This conversation has no system prompt</source>
        <translation>Cette conversation n&apos;a pas de prompt système</translation>
    </message>
    <message>
        <location filename="../../ui/review/review_keys.py" line="207"/>
        <source>Not accepted</source>
        <translation>Non accepté</translation>
    </message>
</context>
<context>
    <name>SecondOpinionRunner</name>
    <message>
        <location filename="../../ui/review/second_opinion.py" line="69"/>
        <source>Second opinions are already running</source>
        <translation>Des seconds avis sont déjà en cours</translation>
    </message>
    <message>
        <location filename="../../ui/review/second_opinion.py" line="72"/>
        <source>No attempt to ask a second opinion about</source>
        <translation>Aucun essai pour lequel demander un second avis</translation>
    </message>
    <message>
        <location filename="../../ui/review/second_opinion.py" line="90"/>
        <source>Second opinions: %1 asked, %2 now accepted, %3 failed, %4 skipped</source>
        <translation>Seconds avis : %1 demandés, %2 désormais acceptés, %3 en échec, %4 ignorés</translation>
    </message>
    <message>
        <location filename="../../ui/review/second_opinion.py" line="94"/>
        <source>cancelled</source>
        <translation>annulé</translation>
    </message>
    <message>
        <location filename="../../ui/review/second_opinion.py" line="98"/>
        <source>Second opinion stopped: %1</source>
        <translation>Second avis arrêté : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/second_opinion.py" line="103"/>
        <location filename="../../ui/review/second_opinion.py" line="109"/>
        <source>Second opinion failed: %1</source>
        <translation>Échec du second avis : %1</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <location filename="../../ui/settings.py" line="177"/>
        <source>Settings are kept for this session only: %1 is a symbolic link to %2, and the app writes its settings only to a regular file there.</source>
        <translation>Réglages gardés pour cette session seulement : %1 est un lien symbolique vers %2, et l’application n’écrit ses réglages que dans un fichier ordinaire à cet endroit.</translation>
    </message>
    <message>
        <location filename="../../ui/settings.py" line="180"/>
        <source>Settings are kept for this session only: %1 has another name elsewhere (a hard link), and the app writes its settings only to a file of its own there.</source>
        <translation>Réglages gardés pour cette session seulement : %1 a un autre nom ailleurs (un lien physique), et l’application n’écrit ses réglages que dans un fichier à elle à cet endroit.</translation>
    </message>
    <message>
        <location filename="../../ui/settings.py" line="183"/>
        <source>Settings are kept for this session only: %1 was replaced by %2, not a settings file, and the app leaves it as it is.</source>
        <translation>Réglages gardés pour cette session seulement : %1 a été remplacé par %2, pas un fichier de réglages, et l’application le laisse tel quel.</translation>
    </message>
    <message>
        <location filename="../../ui/settings.py" line="188"/>
        <source>a database</source>
        <translation>une base de données</translation>
    </message>
    <message>
        <location filename="../../ui/settings.py" line="189"/>
        <source>a file that is not text</source>
        <translation>un fichier qui n’est pas du texte</translation>
    </message>
    <message>
        <location filename="../../ui/settings.py" line="190"/>
        <source>a folder</source>
        <translation>un dossier</translation>
    </message>
    <message>
        <location filename="../../ui/settings.py" line="191"/>
        <source>a pipe</source>
        <translation>un tube</translation>
    </message>
    <message>
        <location filename="../../ui/settings.py" line="192"/>
        <source>a device</source>
        <translation>un périphérique</translation>
    </message>
    <message>
        <location filename="../../ui/settings.py" line="193"/>
        <source>something that is not a file</source>
        <translation>quelque chose qui n’est pas un fichier</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../ui/review/dialogs.py" line="64"/>
        <source>Settings</source>
        <translation>Réglages</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="71"/>
        <source>default location</source>
        <translation>emplacement par défaut</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="73"/>
        <source>System language</source>
        <translation>Langue du système</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="77"/>
        <source>Go to the next attempt after accept or reject</source>
        <translation>Passer à l&apos;essai suivant après accepter ou rejeter</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="81"/>
        <source>Reviewer name</source>
        <translation>Nom du relecteur</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="82"/>
        <source>Ollama host</source>
        <translation>Hôte Ollama</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="83"/>
        <source>Judge model</source>
        <translation>Modèle juge</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="85"/>
        <source>Database</source>
        <translation>Base de données</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="86"/>
        <source>Language</source>
        <translation>Langue</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="88"/>
        <source>Language and database changes apply at the next start.</source>
        <translation>La langue et la base de données changent au prochain démarrage.</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="79"/>
        <source>Let a reasoning judge think before a second opinion</source>
        <translation>Laisser un juge qui raisonne réfléchir avant un second avis</translation>
    </message>
</context>
<context>
    <name>Shortcuts</name>
    <message>
        <location filename="../../ui/shortcuts.py" line="82"/>
        <source>Accept the attempt</source>
        <translation>Accepter l&apos;essai</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="88"/>
        <source>Reject the attempt</source>
        <translation>Rejeter l&apos;essai</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="90"/>
        <source>Next attempt</source>
        <translation>Essai suivant</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="91"/>
        <source>Previous attempt</source>
        <translation>Essai précédent</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="101"/>
        <source>Toggle the n-th criterion of the table</source>
        <translation>Inverser le n-ième critère du tableau</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="97"/>
        <source>Mark the failed check as a false positive</source>
        <translation>Marquer le contrôle en échec comme faux positif</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="85"/>
        <source>Rescue: flip the contradictions that would change the decision, then accept</source>
        <translation>Repêcher : inverser les contradictions qui changeraient la décision, puis accepter</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="93"/>
        <source>Next attempt you have not reviewed</source>
        <translation>Essai suivant que vous n&apos;avez pas relu</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="94"/>
        <source>Write a note</source>
        <translation>Écrire une note</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="106"/>
        <source>Choose any verdict or check: arrows move, Space flips, Esc goes back</source>
        <translation>Choisir un verdict ou un contrôle : les flèches déplacent, Espace inverse, Échap revient</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="109"/>
        <source>Ask a second opinion</source>
        <translation>Demander un second avis</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="112"/>
        <source>Second opinion for all flagged</source>
        <translation>Second avis pour toutes les contradictions</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="115"/>
        <source>Bulk action on the filter or the selected rows…</source>
        <translation>Action groupée sur le filtre ou les lignes sélectionnées…</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="118"/>
        <source>Replay the filter with the current check versions</source>
        <translation>Rejouer le filtre avec les versions actuelles des contrôles</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="121"/>
        <source>Scroll the example down</source>
        <translation>Faire défiler l&apos;exemple vers le bas</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="123"/>
        <source>Scroll the example up</source>
        <translation>Faire défiler l&apos;exemple vers le haut</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="125"/>
        <source>Show earlier messages of the conversation</source>
        <translation>Afficher des messages plus anciens de la conversation</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="127"/>
        <source>Show or hide the system prompt</source>
        <translation>Afficher ou masquer le prompt système</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="129"/>
        <source>Show the whole texts of the attempt (answer, question, rationales)</source>
        <translation>Montrer les textes entiers de la tentative (réponse, question, justifications)</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="131"/>
        <source>Search</source>
        <translation>Chercher</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="134"/>
        <source>Go to the filters (Tab moves, Esc goes back)</source>
        <translation>Aller aux filtres (Tab passe de l&apos;un à l&apos;autre, Échap revient)</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="137"/>
        <source>Back to the queue (clears the search, closes a question)</source>
        <translation>Retour à la file (efface la recherche, ferme une question)</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="140"/>
        <source>Audit accepted attempts</source>
        <translation>Auditer les essais acceptés</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="104"/>
        <location filename="../../ui/shortcuts.py" line="141"/>
        <source>Undo</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="111"/>
        <location filename="../../ui/shortcuts.py" line="143"/>
        <source>Redo</source>
        <translation>Rétablir</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="145"/>
        <source>Settings…</source>
        <translation>Réglages…</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="146"/>
        <source>Quit</source>
        <translation>Quitter</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="147"/>
        <source>Keyboard shortcuts</source>
        <translation>Raccourcis clavier</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="178"/>
        <source>Toggle criterion %1</source>
        <translation>Inverser le critère %1</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="156"/>
        <source>Regex &amp;back-test…</source>
        <translation>&amp;Rejeu d&apos;une expression régulière…</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="159"/>
        <source>&amp;Criteria editor…</source>
        <translation>Éditeur de &amp;critères…</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="161"/>
        <source>Agreement &amp;dashboard…</source>
        <translation>&amp;Tableau d&apos;accord…</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="162"/>
        <source>&amp;Export…</source>
        <translation>&amp;Exporter…</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="164"/>
        <source>Ca&amp;libration…</source>
        <translation>Ca&amp;librage…</translation>
    </message>
</context>
<context>
    <name>StoreRefused</name>
    <message>
        <location filename="../../ui/store_choice.py" line="41"/>
        <source>Cannot open the database set in Settings</source>
        <translation>Impossible d’ouvrir la base de données choisie dans les Réglages</translation>
    </message>
    <message>
        <location filename="../../ui/store_choice.py" line="44"/>
        <source>Use the default store (the setting is cleared), choose another database (it is saved in Settings), or quit.</source>
        <translation>Utilisez la base par défaut (le réglage est effacé), choisissez une autre base de données (elle est enregistrée dans les Réglages), ou quittez.</translation>
    </message>
    <message>
        <location filename="../../ui/store_choice.py" line="47"/>
        <source>Use the default store</source>
        <translation>Utiliser la base par défaut</translation>
    </message>
    <message>
        <location filename="../../ui/store_choice.py" line="48"/>
        <source>Choose a database…</source>
        <translation>Choisir une base de données…</translation>
    </message>
    <message>
        <location filename="../../ui/store_choice.py" line="49"/>
        <source>Quit</source>
        <translation>Quitter</translation>
    </message>
    <message>
        <location filename="../../ui/store_choice.py" line="60"/>
        <source>Choose a database</source>
        <translation>Choisir une base de données</translation>
    </message>
    <message>
        <location filename="../../ui/store_choice.py" line="62"/>
        <source>SQLite databases (*.sqlite3 *.sqlite *.db);;All files (*)</source>
        <translation>Bases SQLite (*.sqlite3 *.sqlite *.db);;Tous les fichiers (*)</translation>
    </message>
</context>
<context>
    <name>TaskManager</name>
    <message>
        <location filename="../../ui/tasks.py" line="373"/>
        <source>A change</source>
        <translation>Une modification</translation>
    </message>
</context>
<context>
    <name>TypeAhead</name>
    <message>
        <location filename="../../ui/review/type_ahead.py" line="73"/>
        <source>a click came before they could apply</source>
        <translation>un clic est venu avant qu&apos;elles s&apos;appliquent</translation>
    </message>
</context>
<context>
    <name>UndoText</name>
    <message>
        <location filename="../../ui/review/undo_text.py" line="20"/>
        <source>accept %1</source>
        <translation>accepter %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="21"/>
        <source>reject %1</source>
        <translation>rejeter %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="22"/>
        <source>clear the decision on %1</source>
        <translation>effacer la décision sur %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="23"/>
        <source>note on %1</source>
        <translation>note sur %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="24"/>
        <source>%1 → met on %2</source>
        <translation>%1 → tenu sur %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="25"/>
        <source>%1 → unmet on %2</source>
        <translation>%1 → non tenu sur %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="26"/>
        <source>%1 → the judge&apos;s verdict on %2</source>
        <translation>%1 → verdict du juge sur %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="27"/>
        <source>%1 → false positive on %2</source>
        <translation>%1 → faux positif sur %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="28"/>
        <source>%1 → check result on %2</source>
        <translation>%1 → résultat du contrôle sur %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="29"/>
        <source>%1 changes on %2</source>
        <translation>%1 modifications sur %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="30"/>
        <source>%1 changes on %2 attempts</source>
        <translation>%1 modifications sur %2 essais</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="31"/>
        <source>Undo: %1</source>
        <translation>Annuler : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="32"/>
        <source>Redo: %1</source>
        <translation>Rétablir : %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/undo_text.py" line="57"/>
        <source>accept %n attempts</source>
        <translation>
            <numerusform>accepter %n essai</numerusform>
            <numerusform>accepter %n essais</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/undo_text.py" line="59"/>
        <source>reject %n attempts</source>
        <translation>
            <numerusform>rejeter %n essai</numerusform>
            <numerusform>rejeter %n essais</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/undo_text.py" line="60"/>
        <source>clear the decision on %n attempts</source>
        <translation>
            <numerusform>effacer la décision sur %n essai</numerusform>
            <numerusform>effacer la décision sur %n essais</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/undo_text.py" line="62"/>
        <source>note on %n attempts</source>
        <translation>
            <numerusform>note sur %n essai</numerusform>
            <numerusform>note sur %n essais</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/undo_text.py" line="64"/>
        <source>%1 → met on %n attempts</source>
        <translation>
            <numerusform>%1 → tenu sur %n essai</numerusform>
            <numerusform>%1 → tenu sur %n essais</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/undo_text.py" line="65"/>
        <source>%1 → unmet on %n attempts</source>
        <translation>
            <numerusform>%1 → non tenu sur %n essai</numerusform>
            <numerusform>%1 → non tenu sur %n essais</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/undo_text.py" line="66"/>
        <source>%1 → the judge&apos;s verdict on %n attempts</source>
        <translation>
            <numerusform>%1 → verdict du juge sur %n essai</numerusform>
            <numerusform>%1 → verdict du juge sur %n essais</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/undo_text.py" line="68"/>
        <source>flip %1 on %n attempts</source>
        <translation>
            <numerusform>inverser %1 sur %n essai</numerusform>
            <numerusform>inverser %1 sur %n essais</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/undo_text.py" line="70"/>
        <source>%1 → false positive on %n attempts</source>
        <translation>
            <numerusform>%1 → faux positif sur %n essai</numerusform>
            <numerusform>%1 → faux positif sur %n essais</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/review/undo_text.py" line="72"/>
        <source>%1 → check result on %n attempts</source>
        <translation>
            <numerusform>%1 → résultat du contrôle sur %n essai</numerusform>
            <numerusform>%1 → résultat du contrôle sur %n essais</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>VerdictModel</name>
    <message>
        <location filename="../../ui/review/example_models.py" line="96"/>
        <source>yes</source>
        <translation>oui</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="97"/>
        <source>no</source>
        <translation>non</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="170"/>
        <source>Criterion</source>
        <translation>Critère</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="170"/>
        <source>Judge</source>
        <translation>Juge</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="170"/>
        <source>Polarity</source>
        <translation>Polarité</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="171"/>
        <source>Rationale</source>
        <translation>Raison</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="171"/>
        <source>Now
(with your overrides)</source>
        <translation>Maintenant
(avec vos corrections)</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="172"/>
        <source>Contradiction</source>
        <translation>Contradiction</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="172"/>
        <source>Second opinion</source>
        <translation>Second avis</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="177"/>
        <source>The key that flips this row: 1–9, then 0 for row 10. V puts a cursor on the table: the arrows reach every row, Space flips it.</source>
        <translation>La touche qui inverse cette ligne : 1 à 9, puis 0 pour la ligne 10. V met un curseur sur le tableau : les flèches atteignent chaque ligne, Espace l&apos;inverse.</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="179"/>
        <source>The judge&apos;s criterion (hover a name for its full text).</source>
        <translation>Le critère du juge (survolez un nom pour voir son texte entier).</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="180"/>
        <source>+ a success criterion: &quot;yes&quot; is good, &quot;no&quot; refuses.
− a failure criterion: &quot;yes&quot; means the answer commits the fault (a major fault refuses).</source>
        <translation>+ un critère de réussite : « oui » est bon, « non » refuse.
− un critère d&apos;échec : « oui » veut dire que la réponse commet la faute (une faute majeure refuse).</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="183"/>
        <source>What the judge said first.</source>
        <translation>Ce que le juge a dit en premier.</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="184"/>
        <source>The verdict the filter&apos;s rule uses now: the second opinion applied, then your override (✎); red when it refuses the attempt.</source>
        <translation>Le verdict que la règle du filtre utilise maintenant : le second avis appliqué, puis votre correction (✎) ; en rouge quand il refuse l&apos;essai.</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="186"/>
        <source>The judge&apos;s reasoning; highlighted: what contradicts the verdict, and the search&apos;s words.</source>
        <translation>Le raisonnement du juge ; surligné : ce qui contredit le verdict, et les mots de la recherche.</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="188"/>
        <source>The rationale says the opposite of the verdict (the detector&apos;s score, 0–1).</source>
        <translation>La raison dit le contraire du verdict (le score du détecteur, de 0 à 1).</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="190"/>
        <source>The criterion judged again alone, and whether it was applied.</source>
        <translation>Le critère jugé à nouveau seul, et s&apos;il a été appliqué.</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="280"/>
        <source>⚠ contradiction %1</source>
        <translation>⚠ contradiction %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="287"/>
        <source>unreliable — not applied</source>
        <translation>peu fiable — non appliqué</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="301"/>
        <source>Not applied: %1</source>
        <translation>Non appliqué : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="304"/>
        <source>Judge&apos;s reasoning: %1</source>
        <translation>Raisonnement du juge : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="239"/>
        <source>met</source>
        <translation>tenu</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="239"/>
        <source>not met</source>
        <translation>non tenu</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="240"/>
        <source>fault committed</source>
        <translation>faute commise</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="241"/>
        <source>no fault</source>
        <translation>pas de faute</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="242"/>
        <source>the opposite</source>
        <translation>le contraire</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="243"/>
        <source>%1 %2 = %3 (%4); the rationale says: %5</source>
        <translation>%1 %2 = %3 (%4) ; la justification dit : %5</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="249"/>
        <source>Resolved: your override or an applied second opinion replaced this verdict.</source>
        <translation>Résolu : votre correction ou un second avis appliqué a remplacé ce verdict.</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="252"/>
        <source>Read the way its rationale reads, this verdict would change the filter&apos;s decision.</source>
        <translation>Lu comme le dit sa justification, ce verdict changerait la décision du filtre.</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="255"/>
        <source>Read the way its rationale reads, this verdict would not change the filter&apos;s decision.</source>
        <translation>Lu comme le dit sa justification, ce verdict ne changerait pas la décision du filtre.</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="278"/>
        <source>✓ resolved</source>
        <translation>✓ résolu</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="281"/>
        <source>contradiction %1</source>
        <translation>contradiction %1</translation>
    </message>
</context>
</TS>
