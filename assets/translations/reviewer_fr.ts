<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>AgreementDashboard</name>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="125"/>
        <source>Agreement dashboard</source>
        <translation>Tableau d&apos;accord</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="138"/>
        <source>cause</source>
        <translation>cause</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="138"/>
        <source>refusals</source>
        <translation>refus</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="138"/>
        <source>reviewed</source>
        <translation>relus</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="138"/>
        <source>overturned</source>
        <translation>renversés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="142"/>
        <source>between reviewers</source>
        <translation>entre relecteurs</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="142"/>
        <source>attempts</source>
        <translation>essais</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="142"/>
        <source>agreement</source>
        <translation>accord</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="146"/>
        <source>Refresh</source>
        <translation>Actualiser</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="163"/>
        <source>Refusals per cause</source>
        <translation>Refus par cause</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="166"/>
        <source>Agreement between reviewers (team mode)</source>
        <translation>Accord entre relecteurs (mode équipe)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="222"/>
        <source>Coverage unknown: no attempt the grader accepted has been audited, so the bad answers it let through are not counted. Audit a sample of accepted attempts.</source>
        <translation>Couverture inconnue : aucun essai accepté par le correcteur n&apos;a été audité, les mauvaises réponses qu&apos;il a laissé passer ne sont donc pas comptées. Auditez un échantillon d&apos;essais acceptés.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="229"/>
        <source>%1 audited attempts — kappa %2, false-failure rate %3, coverage %4</source>
        <translation>%1 essais audités — kappa %2, taux de faux refus %3, couverture %4</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="232"/>
        <location filename="../../ui/tools/dashboard.py" line="270"/>
        <source>unknown</source>
        <translation>inconnu</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="233"/>
        <source>overall</source>
        <translation>global</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="240"/>
        <source>Conversations cut short by the filter: %1 (%2 turns lost); by refusals the reviewer overturned: %3 (%4 turns lost)</source>
        <translation>Conversations coupées par le filtre : %1 (%2 tours perdus) ; par des refus renversés à la relecture : %3 (%4 tours perdus)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="253"/>
        <source>all reviewers, decisions</source>
        <translation>tous les relecteurs, décisions</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="255"/>
        <source>all reviewers, %1</source>
        <translation>tous les relecteurs, %1</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <location filename="../../ui/app.py" line="93"/>
        <source>Cannot open the database</source>
        <translation>Impossible d&apos;ouvrir la base de données</translation>
    </message>
</context>
<context>
    <name>BacktestEditor</name>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="132"/>
        <source>Regex back-test</source>
        <translation>Rejeu d&apos;une expression régulière</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="159"/>
        <source>forbid (fails on a match)</source>
        <translation>interdit (échoue si elle trouve)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="160"/>
        <source>require (fails without a match)</source>
        <translation>exige (échoue si elle ne trouve pas)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="162"/>
        <source>require: only when the last user message matches</source>
        <translation>exige : seulement si le dernier message de la personne correspond</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="175"/>
        <source>Why this change (one line, required to save)</source>
        <translation>Pourquoi ce changement (une ligne, obligatoire pour enregistrer)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="176"/>
        <source>Save as new version</source>
        <translation>Enregistrer comme nouvelle version</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="180"/>
        <source>Check</source>
        <translation>Contrôle</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="181"/>
        <source>Current</source>
        <translation>Actuel</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="182"/>
        <source>Pattern</source>
        <translation>Motif</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="186"/>
        <source>Flags, mode</source>
        <translation>Options, mode</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="187"/>
        <source>When</source>
        <translation>Quand</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="189"/>
        <source>Hits that disappear</source>
        <translation>Résultats qui disparaissent</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="190"/>
        <source>Hits that appear</source>
        <translation>Résultats qui apparaissent</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="298"/>
        <source>Back-testing…</source>
        <translation>Rejeu en cours…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="322"/>
        <source>%1 attempts: %2 → %3 failing; %4 hits disappear, %5 appear</source>
        <translation>%1 essais : %2 → %3 en échec ; %4 résultats disparaissent, %5 apparaissent</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="327"/>
        <source>Agreement with the reviewers on %1 labelled attempts</source>
        <translation>Accord avec les relecteurs sur %1 essais étiquetés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="329"/>
        <source>current</source>
        <translation>actuel</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="330"/>
        <source>new</source>
        <translation>nouveau</translation>
    </message>
    <message>
        <location filename="../../ui/tools/backtest_editor.py" line="405"/>
        <source>Saved %1 v%2</source>
        <translation>%1 v%2 enregistré</translation>
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
        <location filename="../../ui/tools/calibration.py" line="127"/>
        <source>Calibration</source>
        <translation>Calibrage</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="139"/>
        <source>Open a grading file…</source>
        <translation>Ouvrir un fichier d&apos;évaluation…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="143"/>
        <source>Grading file</source>
        <translation>Fichier d&apos;évaluation</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="162"/>
        <source>This group</source>
        <translation>Ce groupe</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="171"/>
        <source>Grader</source>
        <translation>Évaluateur</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="171"/>
        <source>Pairwise accuracy</source>
        <translation>Exactitude par paires</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="171"/>
        <source>Kendall τ-b</source>
        <translation>τ-b de Kendall</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="172"/>
        <source>Groups</source>
        <translation>Groupes</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="172"/>
        <source>Skipped</source>
        <translation>Ignorés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="172"/>
        <source>Inverted pairs</source>
        <translation>Paires inversées</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="185"/>
        <source>Debias: mean over the orders</source>
        <translation>Corriger : moyenne sur les ordres</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="187"/>
        <location filename="../../ui/tools/calibration.py" line="458"/>
        <location filename="../../ui/tools/calibration.py" line="468"/>
        <source>Run the judge</source>
        <translation>Lancer le juge</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="193"/>
        <source>Orders</source>
        <translation>Ordres</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="198"/>
        <source>Agreement over the groups you finished</source>
        <translation>Accord sur les groupes que vous avez terminés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="239"/>
        <source>%1 (%2 answers, %3 groups)</source>
        <translation>%1 (%2 réponses, %3 groupes)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="243"/>
        <source>Open a grading file (Ctrl+O): the JSONL of reviewer grade, one answer per line.</source>
        <translation>Ouvrez un fichier d&apos;évaluation (Ctrl+O) : le JSONL de reviewer grade, une réponse par ligne.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="258"/>
        <source>Open a grading file</source>
        <translation>Ouvrir un fichier d&apos;évaluation</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="262"/>
        <source>Grading files (*.jsonl)</source>
        <translation>Fichiers d&apos;évaluation (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="262"/>
        <source>All files (*)</source>
        <translation>Tous les fichiers (*)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="270"/>
        <source>Opening %1…</source>
        <translation>Ouverture de %1…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="409"/>
        <source>no judge configured (Settings: Ollama host and model)</source>
        <translation>aucun juge configuré (Réglages : hôte et modèle Ollama)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="418"/>
        <source>%1 groups × up to %2 orders = %3 judge calls</source>
        <translation>%1 groupes × jusqu&apos;à %2 ordres = %3 appels au juge</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="446"/>
        <source>Stop the judge</source>
        <translation>Arrêter le juge</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="447"/>
        <source>Judging…</source>
        <translation>Évaluation par le juge…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="453"/>
        <source>Judged %1 of %2 groups</source>
        <translation>%1 groupes sur %2 jugés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="461"/>
        <source>The judge noted %1 groups</source>
        <translation>Le juge a noté %1 groupes</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="492"/>
        <source>Prompt: %1</source>
        <translation>Prompt : %1</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="493"/>
        <source>Reference: %1</source>
        <translation>Référence : %1</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="495"/>
        <source>Group %1 of %2: %3 — %4 of %2 finished</source>
        <translation>Groupe %1 sur %2 : %3 — %4 sur %2 terminés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="510"/>
        <source>Answer</source>
        <translation>Réponse</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="510"/>
        <source>Text</source>
        <translation>Texte</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="510"/>
        <source>You</source>
        <translation>Vous</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="512"/>
        <source>Your advantage</source>
        <translation>Votre avantage</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="514"/>
        <source>%1 adv.</source>
        <translation>avantage %1</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="552"/>
        <source>reference without any figure</source>
        <translation>référence sans aucun chiffre</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="553"/>
        <source>no expected value</source>
        <translation>pas de valeur attendue</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="554"/>
        <source>no reference</source>
        <translation>pas de référence</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="555"/>
        <source>not judged</source>
        <translation>pas jugé</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="560"/>
        <source>%1 above %2 (you: %2 above %1)</source>
        <translation>%1 au-dessus de %2 (vous : %2 au-dessus de %1)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="568"/>
        <source>Ranking changed: Enter stores it (best first).</source>
        <translation>Classement modifié : Entrée l&apos;enregistre (la meilleure en premier).</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="570"/>
        <source>Score the %1 answers left (1–5), or rank them (Alt+↑/↓, then Enter): the graders&apos; scores show once the group is scored.</source>
        <translation>Notez les %1 réponses restantes (1 à 5), ou classez-les (Alt+↑/↓, puis Entrée) : les scores des évaluateurs s&apos;affichent une fois le groupe noté.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="574"/>
        <source>Group scored: the graders&apos; scores are beside yours.</source>
        <translation>Groupe noté : les scores des évaluateurs sont à côté des vôtres.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="579"/>
        <source>Skip this group: %1</source>
        <translation>Ignorent ce groupe : %1</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="583"/>
        <source>%1 inverts: %2</source>
        <translation>%1 inverse : %2</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="587"/>
        <source>Judge on this group: position consistency %1 over %2 orders; score spread %3</source>
        <translation>Juge sur ce groupe : cohérence de position %1 sur %2 ordres ; écart des scores %3</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="607"/>
        <source>Judge position consistency: run the judge in 2 or more orders.</source>
        <translation>Cohérence de position du juge : lancez le juge dans 2 ordres ou plus.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="609"/>
        <source>Judge position consistency: needs 2 or more orders.</source>
        <translation>Cohérence de position du juge : il faut 2 ordres ou plus.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="612"/>
        <source>Judge position consistency: %1 (share of answer pairs ordered alike in every order; 1 = the order never mattered)</source>
        <translation>Cohérence de position du juge : %1 (part des paires de réponses classées pareil dans tous les ordres ; 1 = l&apos;ordre n&apos;a jamais compté)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="618"/>
        <source>Finish a group to compare the graders with you.</source>
        <translation>Terminez un groupe pour comparer les évaluateurs avec vous.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="620"/>
        <source>No grader can be compared yet: give the answers of a group different scores.</source>
        <translation>Aucun évaluateur ne peut encore être comparé : donnez des notes différentes aux réponses d&apos;un groupe.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/calibration.py" line="622"/>
        <source>Groups finished: %1. Best agreement: %2 (pairwise accuracy %3).</source>
        <translation>Groupes terminés : %1. Meilleur accord : %2 (exactitude par paires %3).</translation>
    </message>
</context>
<context>
    <name>CheckModel</name>
    <message>
        <location filename="../../ui/review/example_models.py" line="198"/>
        <source>Check</source>
        <translation>Contrôle</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="198"/>
        <source>Mode</source>
        <translation>Mode</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="198"/>
        <source>Result</source>
        <translation>Résultat</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="198"/>
        <source>Matches</source>
        <translation>Correspondances</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="199"/>
        <source>Description</source>
        <translation>Description</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="222"/>
        <source>forbid</source>
        <translation>interdit</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="222"/>
        <source>require</source>
        <translation>exige</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="225"/>
        <source>failed → false positive</source>
        <translation>échoué → faux positif</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="226"/>
        <source>passed</source>
        <translation>réussi</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="226"/>
        <source>failed</source>
        <translation>échoué</translation>
    </message>
</context>
<context>
    <name>CriteriaEditor</name>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="80"/>
        <source>Criteria editor</source>
        <translation>Éditeur de critères</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="92"/>
        <source>Why this change (one line, required to save)</source>
        <translation>Pourquoi ce changement (une ligne, obligatoire pour enregistrer)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="93"/>
        <source>Save as new version</source>
        <translation>Enregistrer comme nouvelle version</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="94"/>
        <source>Re-judge touched attempts</source>
        <translation>Rejuger les essais concernés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="96"/>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="103"/>
        <source>attempt</source>
        <translation>essai</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="103"/>
        <source>verdict</source>
        <translation>verdict</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="104"/>
        <source>decision</source>
        <translation>décision</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="104"/>
        <source>new rationale</source>
        <translation>nouvelle raison</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="107"/>
        <source>Criterion</source>
        <translation>Critère</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="108"/>
        <source>Current</source>
        <translation>Actuel</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="109"/>
        <source>New text</source>
        <translation>Nouveau texte</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="110"/>
        <source>Reason</source>
        <translation>Raison</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="159"/>
        <source>Re-judge %1 touched attempts</source>
        <translation>Rejuger les %1 essais concernés</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="172"/>
        <source>No judge configured</source>
        <translation>Aucun juge configuré</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="191"/>
        <source>Saved %1 v%2 — re-judge to see which verdicts flip</source>
        <translation>%1 v%2 enregistré — rejugez pour voir quels verdicts changent</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="208"/>
        <source>Re-judging %1…</source>
        <translation>Nouveau jugement de %1…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="238"/>
        <source>accepted</source>
        <translation>accepté</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="238"/>
        <source>refused</source>
        <translation>refusé</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="239"/>
        <source>unchanged</source>
        <translation>inchangé</translation>
    </message>
    <message>
        <location filename="../../ui/tools/criteria_editor.py" line="249"/>
        <source>Re-judging failed: %1</source>
        <translation>Échec du nouveau jugement : %1</translation>
    </message>
</context>
<context>
    <name>ExamplePane</name>
    <message>
        <location filename="../../ui/review/example_view.py" line="210"/>
        <source>Conversation so far</source>
        <translation>La conversation jusqu&apos;ici</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="179"/>
        <source>Graded response</source>
        <translation>Réponse évaluée</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="187"/>
        <source>Judge verdicts (keys 1–9 toggle)</source>
        <translation>Verdicts du juge (les touches 1 à 9 les inversent)</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="198"/>
        <source>Deterministic checks (F marks a false positive)</source>
        <translation>Contrôles déterministes (F marque un faux positif)</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="229"/>
        <source>No attempt selected</source>
        <translation>Aucun essai sélectionné</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="252"/>
        <source>⚠ judge contradicts itself</source>
        <translation>⚠ le juge se contredit</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="284"/>
        <location filename="../../ui/review/example_view.py" line="289"/>
        <source>accepted</source>
        <translation>accepté</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="284"/>
        <location filename="../../ui/review/example_view.py" line="289"/>
        <source>refused</source>
        <translation>refusé</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="286"/>
        <source>Filter: %1</source>
        <translation>Filtre : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="290"/>
        <source>With second opinions and your overrides, the filter would now: %1</source>
        <translation>Avec les seconds avis et vos corrections, le filtre aurait maintenant : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="293"/>
        <source>changed</source>
        <translation>changé</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="298"/>
        <location filename="../../ui/review/example_view.py" line="306"/>
        <source>accept</source>
        <translation>accepter</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="298"/>
        <location filename="../../ui/review/example_view.py" line="306"/>
        <source>reject</source>
        <translation>rejeter</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="299"/>
        <source>not reviewed yet</source>
        <translation>pas encore relu</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="300"/>
        <source>Your decision: %1</source>
        <translation>Votre décision : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="302"/>
        <source>Note: %1</source>
        <translation>Note : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="307"/>
        <source>no decision</source>
        <translation>pas de décision</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="310"/>
        <source>Other reviewers: %1</source>
        <translation>Autres relecteurs : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="314"/>
        <source>This refusal ended the conversation at turn %1 of %2 planned (%3 turns lost).</source>
        <translation>Ce refus a arrêté la conversation au tour %1 sur %2 prévus (%3 tours perdus).</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="319"/>
        <source>This refusal ended the conversation at turn %1.</source>
        <translation>Ce refus a arrêté la conversation au tour %1.</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="323"/>
        <source>Second opinion failed: %1</source>
        <translation>Échec du second avis : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_view.py" line="334"/>
        <source>Against the reference: %1</source>
        <translation>Par rapport à la référence : %1</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="51"/>
        <location filename="../../ui/tools/export_dialog.py" line="72"/>
        <source>Export</source>
        <translation>Exporter</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="53"/>
        <source>Corrected dataset (JSONL)</source>
        <translation>Jeu de données corrigé (JSONL)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="54"/>
        <source>Catalog with versions (JSON)</source>
        <translation>Catalogue avec versions (JSON)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="55"/>
        <source>Golden set for the filter&apos;s tests (JSONL)</source>
        <translation>Jeu de référence pour les tests du filtre (JSONL)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="56"/>
        <source>Conversations to resume (JSONL)</source>
        <translation>Conversations à reprendre (JSONL)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="57"/>
        <source>Audit trail (JSONL)</source>
        <translation>Journal d&apos;audit (JSONL)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="58"/>
        <source>Calibration scores with their grading files (JSONL)</source>
        <translation>Notes de calibrage avec leurs fichiers d&apos;évaluation (JSONL)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="62"/>
        <source>one example per assistant turn</source>
        <translation>un exemple par tour de l&apos;assistant</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="63"/>
        <source>one example per conversation</source>
        <translation>un exemple par conversation</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="65"/>
        <source>chat messages (OpenAI / Hugging Face)</source>
        <translation>messages de chat (OpenAI / Hugging Face)</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="68"/>
        <source>Browse…</source>
        <translation>Parcourir…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="74"/>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="78"/>
        <source>What</source>
        <translation>Quoi</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="79"/>
        <source>Examples</source>
        <translation>Exemples</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="80"/>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="84"/>
        <source>File</source>
        <translation>Fichier</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="103"/>
        <source>Export to</source>
        <translation>Exporter vers</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="111"/>
        <source>Choose a file to write.</source>
        <translation>Choisissez un fichier à écrire.</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="116"/>
        <source>Exporting…</source>
        <translation>Export en cours…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/export_dialog.py" line="127"/>
        <source>Export failed: %1</source>
        <translation>Échec de l&apos;export : %1</translation>
    </message>
</context>
<context>
    <name>FeedbackTools</name>
    <message>
        <location filename="../../ui/tools/menu.py" line="79"/>
        <source>Regex back-test…</source>
        <translation>Rejeu d&apos;une expression régulière…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/menu.py" line="80"/>
        <source>Criteria editor…</source>
        <translation>Éditeur de critères…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/menu.py" line="81"/>
        <source>Agreement dashboard…</source>
        <translation>Tableau d&apos;accord…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/menu.py" line="82"/>
        <source>Export…</source>
        <translation>Exporter…</translation>
    </message>
    <message>
        <location filename="../../ui/tools/menu.py" line="83"/>
        <source>Calibration…</source>
        <translation>Calibrage…</translation>
    </message>
</context>
<context>
    <name>FilterBar</name>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="40"/>
        <source>Search responses and rationales (/)</source>
        <translation>Chercher dans les réponses et les raisons (/)</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="50"/>
        <source>Refused attempts</source>
        <translation>Essais refusés</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="51"/>
        <source>Audit: random accepted attempts</source>
        <translation>Audit : essais acceptés au hasard</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="54"/>
        <source>All runs</source>
        <translation>Toutes les générations</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="55"/>
        <source>Any criterion</source>
        <translation>Tout critère</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="56"/>
        <source>Any check</source>
        <translation>Tout contrôle</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="57"/>
        <source>All</source>
        <translation>Tous</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="57"/>
        <source>To review</source>
        <translation>À relire</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="57"/>
        <source>Reviewed</source>
        <translation>Relus</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="58"/>
        <source>Overridden</source>
        <translation>Corrigés</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="58"/>
        <source>Reviewed by others, not by me</source>
        <translation>Relus par d&apos;autres, pas par moi</translation>
    </message>
    <message>
        <location filename="../../ui/review/filter_bar.py" line="61"/>
        <source>Contradictions only</source>
        <translation>Contradictions seulement</translation>
    </message>
</context>
<context>
    <name>HelpOverlay</name>
    <message>
        <location filename="../../ui/review/dialogs.py" line="53"/>
        <source>Keyboard shortcuts</source>
        <translation>Raccourcis clavier</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="66"/>
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
    <name>MainWindow</name>
    <message>
        <location filename="../../ui/review/window.py" line="68"/>
        <source>Reviewer — refused examples</source>
        <translation>Reviewer — exemples refusés</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="329"/>
        <source>second opinions %v / %m</source>
        <translation>seconds avis %v / %m</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="63"/>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="64"/>
        <source>&amp;Edit</source>
        <translation>&amp;Édition</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="65"/>
        <source>&amp;Go</source>
        <translation>&amp;Aller</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="66"/>
        <source>&amp;Review</source>
        <translation>&amp;Relecture</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="67"/>
        <source>Toggle criterion</source>
        <translation>Inverser un critère</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="69"/>
        <source>&amp;Tools</source>
        <translation>&amp;Outils</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="70"/>
        <source>&amp;Help</source>
        <translation>Aid&amp;e</translation>
    </message>
    <message>
        <location filename="../../ui/review/action_builder.py" line="85"/>
        <source>Review</source>
        <translation>Relu</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="75"/>
        <source>Accept (A)</source>
        <translation>Accepter (A)</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="77"/>
        <source>Reject (R)</source>
        <translation>Rejeter (R)</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="81"/>
        <source>Note (N)</source>
        <translation>Note (N)</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="84"/>
        <source>False positive (F)</source>
        <translation>Faux positif (F)</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="93"/>
        <source>Second opinion (S)</source>
        <translation>Second avis (S)</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="96"/>
        <source>Second opinion: all flagged</source>
        <translation>Second avis : toutes les contradictions</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="101"/>
        <source>Undo</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="103"/>
        <source>Redo</source>
        <translation>Rétablir</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="107"/>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="201"/>
        <source>No attempt %1</source>
        <translation>Pas d&apos;essai %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="144"/>
        <source>End of the queue</source>
        <translation>Fin de la file</translation>
    </message>
    <message>
        <location filename="../../ui/review/window.py" line="253"/>
        <source>Reviewed %1 / %2 (%3 to review)</source>
        <translation>Relus %1 / %2 (%3 à relire)</translation>
    </message>
</context>
<context>
    <name>NoteDialog</name>
    <message>
        <location filename="../../ui/review/dialogs.py" line="28"/>
        <source>Note</source>
        <translation>Note</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="33"/>
        <source>Why you decided so (Enter saves)</source>
        <translation>Pourquoi cette décision (Entrée enregistre)</translation>
    </message>
</context>
<context>
    <name>QueueModel</name>
    <message>
        <location filename="../../ui/review/queue_model.py" line="194"/>
        <source>Review</source>
        <translation>Relu</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="194"/>
        <source>Attempt</source>
        <translation>Essai</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="194"/>
        <source>Score</source>
        <translation>Score</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="195"/>
        <source>Why refused</source>
        <translation>Motif du refus</translation>
    </message>
    <message>
        <location filename="../../ui/review/queue_model.py" line="237"/>
        <source>accepted by the filter</source>
        <translation>accepté par le filtre</translation>
    </message>
</context>
<context>
    <name>RateBars</name>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="82"/>
        <source>false-failure rate</source>
        <translation>taux de faux refus</translation>
    </message>
    <message>
        <location filename="../../ui/tools/dashboard.py" line="85"/>
        <source>coverage</source>
        <translation>couverture</translation>
    </message>
</context>
<context>
    <name>ReviewCommands</name>
    <message>
        <location filename="../../ui/review/commands.py" line="68"/>
        <source>Nothing to %1</source>
        <translation>Rien à %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="104"/>
        <source>No criterion %1 here</source>
        <translation>Pas de critère %1 ici</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="120"/>
        <source>No failed check on this attempt</source>
        <translation>Aucun contrôle en échec sur cet essai</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="145"/>
        <source>undo</source>
        <translation>annuler</translation>
    </message>
    <message>
        <location filename="../../ui/review/commands.py" line="150"/>
        <source>redo</source>
        <translation>rétablir</translation>
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
        <location filename="../../ui/review/second_opinion.py" line="89"/>
        <source>Second opinions: %1 asked, %2 now accepted, %3 failed, %4 skipped</source>
        <translation>Seconds avis : %1 demandés, %2 désormais acceptés, %3 en échec, %4 ignorés</translation>
    </message>
    <message>
        <location filename="../../ui/review/second_opinion.py" line="93"/>
        <source>cancelled</source>
        <translation>annulé</translation>
    </message>
    <message>
        <location filename="../../ui/review/second_opinion.py" line="97"/>
        <source>Second opinion stopped: %1</source>
        <translation>Second avis arrêté : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/second_opinion.py" line="102"/>
        <location filename="../../ui/review/second_opinion.py" line="108"/>
        <source>Second opinion failed: %1</source>
        <translation>Échec du second avis : %1</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../ui/review/dialogs.py" line="80"/>
        <source>Settings</source>
        <translation>Réglages</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="87"/>
        <source>default location</source>
        <translation>emplacement par défaut</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="89"/>
        <source>System language</source>
        <translation>Langue du système</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="93"/>
        <source>Go to the next attempt after accept or reject</source>
        <translation>Passer à l&apos;essai suivant après accepter ou rejeter</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="97"/>
        <source>Reviewer name</source>
        <translation>Nom du relecteur</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="98"/>
        <source>Ollama host</source>
        <translation>Hôte Ollama</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="99"/>
        <source>Judge model</source>
        <translation>Modèle juge</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="101"/>
        <source>Database</source>
        <translation>Base de données</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="102"/>
        <source>Language</source>
        <translation>Langue</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="104"/>
        <source>Language and database changes apply at the next start.</source>
        <translation>La langue et la base de données changent au prochain démarrage.</translation>
    </message>
    <message>
        <location filename="../../ui/review/dialogs.py" line="95"/>
        <source>Let a reasoning judge think before a second opinion</source>
        <translation>Laisser un juge qui raisonne réfléchir avant un second avis</translation>
    </message>
</context>
<context>
    <name>Shortcuts</name>
    <message>
        <location filename="../../ui/shortcuts.py" line="74"/>
        <source>Accept the attempt</source>
        <translation>Accepter l&apos;essai</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="76"/>
        <source>Reject the attempt</source>
        <translation>Rejeter l&apos;essai</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="78"/>
        <source>Next attempt</source>
        <translation>Essai suivant</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="79"/>
        <source>Previous attempt</source>
        <translation>Essai précédent</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="87"/>
        <source>Toggle the n-th criterion of the table</source>
        <translation>Inverser le n-ième critère du tableau</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="83"/>
        <source>Mark the failed check as a false positive</source>
        <translation>Marquer le contrôle en échec comme faux positif</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="80"/>
        <source>Write a note</source>
        <translation>Écrire une note</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="92"/>
        <source>Ask a second opinion</source>
        <translation>Demander un second avis</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="95"/>
        <source>Second opinion for all flagged</source>
        <translation>Second avis pour toutes les contradictions</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="97"/>
        <source>Search</source>
        <translation>Chercher</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="99"/>
        <source>Audit accepted attempts</source>
        <translation>Auditer les essais acceptés</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="69"/>
        <location filename="../../ui/shortcuts.py" line="100"/>
        <source>Undo</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="76"/>
        <location filename="../../ui/shortcuts.py" line="102"/>
        <source>Redo</source>
        <translation>Rétablir</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="104"/>
        <source>Settings…</source>
        <translation>Réglages…</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="105"/>
        <source>Quit</source>
        <translation>Quitter</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="106"/>
        <source>Keyboard shortcuts</source>
        <translation>Raccourcis clavier</translation>
    </message>
    <message>
        <location filename="../../ui/shortcuts.py" line="121"/>
        <source>Toggle criterion %1</source>
        <translation>Inverser le critère %1</translation>
    </message>
</context>
<context>
    <name>UndoText</name>
    <message>
        <location filename="../../ui/review/undo_text.py" line="19"/>
        <source>accept %1</source>
        <translation>accepter %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="20"/>
        <source>reject %1</source>
        <translation>rejeter %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="21"/>
        <source>clear the decision on %1</source>
        <translation>effacer la décision sur %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="22"/>
        <source>note on %1</source>
        <translation>note sur %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="23"/>
        <source>%1 → met on %2</source>
        <translation>%1 → tenu sur %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="24"/>
        <source>%1 → unmet on %2</source>
        <translation>%1 → non tenu sur %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="25"/>
        <source>%1 → the judge&apos;s verdict on %2</source>
        <translation>%1 → verdict du juge sur %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="26"/>
        <source>%1 → false positive on %2</source>
        <translation>%1 → faux positif sur %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="27"/>
        <source>%1 → check result on %2</source>
        <translation>%1 → résultat du contrôle sur %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="28"/>
        <source>%1 changes on %2</source>
        <translation>%1 modifications sur %2</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="29"/>
        <source>%1 changes on %2 attempts</source>
        <translation>%1 modifications sur %2 essais</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="30"/>
        <source>Undo: %1</source>
        <translation>Annuler : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/undo_text.py" line="31"/>
        <source>Redo: %1</source>
        <translation>Rétablir : %1</translation>
    </message>
</context>
<context>
    <name>VerdictModel</name>
    <message>
        <location filename="../../ui/review/example_models.py" line="52"/>
        <source>yes</source>
        <translation>oui</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="53"/>
        <source>no</source>
        <translation>non</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="100"/>
        <source>Criterion</source>
        <translation>Critère</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="100"/>
        <source>Judge</source>
        <translation>Juge</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="100"/>
        <source>Now</source>
        <translation>Maintenant</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="101"/>
        <source>Rationale</source>
        <translation>Raison</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="101"/>
        <source>Contradiction</source>
        <translation>Contradiction</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="101"/>
        <source>Second opinion</source>
        <translation>Second avis</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="145"/>
        <source>⚠ contradiction %1</source>
        <translation>⚠ contradiction %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="152"/>
        <source>unreliable — not applied</source>
        <translation>peu fiable — non appliqué</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="161"/>
        <source>Not applied: %1</source>
        <translation>Non appliqué : %1</translation>
    </message>
    <message>
        <location filename="../../ui/review/example_models.py" line="163"/>
        <source>Judge&apos;s reasoning: %1</source>
        <translation>Raisonnement du juge : %1</translation>
    </message>
</context>
</TS>
