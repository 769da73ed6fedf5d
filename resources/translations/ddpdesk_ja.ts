<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name>ddpdesk::ui::ComparePanel</name>
    <message>
        <source>Export CSV</source>
        <translation>CSV にエクスポート</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV ファイル (*.csv)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 を保存しました</translation>
    </message>
    <message>
        <source>Export PNG</source>
        <translation>PNG にエクスポート</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 画像 (*.png)</translation>
    </message>
    <message>
        <source>Sizes (workers, or GPU sets like 0;0,1):</source>
        <translation>サイズ (ワーカー数、または 0;0,1 のような GPU の組):</translation>
    </message>
    <message>
        <source>Run &amp;sweep</source>
        <translation>スイープを実行(&amp;S)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation>CSV にエクスポート...</translation>
    </message>
    <message>
        <source>Export PNG...</source>
        <translation>PNG にエクスポート...</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>ワーカー数</translation>
    </message>
    <message>
        <source>Samples/s</source>
        <translation>サンプル/秒</translation>
    </message>
    <message>
        <source>Speedup</source>
        <translation>高速化率</translation>
    </message>
    <message>
        <source>Efficiency</source>
        <translation>効率</translation>
    </message>
    <message>
        <source>Time to target</source>
        <translation>目標到達時間</translation>
    </message>
    <message>
        <source>Final loss</source>
        <translation>最終損失</translation>
    </message>
    <message>
        <source>Comm wait</source>
        <translation>通信待ち</translation>
    </message>
    <message>
        <source>Speedup vs ideal</source>
        <translation>高速化率と理想値</translation>
    </message>
    <message>
        <source>workers</source>
        <translation>ワーカー数</translation>
    </message>
    <message>
        <source>speedup</source>
        <translation>高速化率</translation>
    </message>
    <message>
        <source>Loss vs wall time</source>
        <translation>経過時間に対する損失</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>mean loss</source>
        <translation>平均損失</translation>
    </message>
    <message>
        <source>Runs the Setup configuration once per size, one after another, and compares throughput. Sizes: 1,2,4 or GPU sets 0;0,1;0,1,2,3.</source>
        <translation>セットアップの設定をサイズごとに順番に実行し、スループットを比較します。サイズ: 1,2,4 または GPU の組 0;0,1;0,1,2,3。</translation>
    </message>
    <message numerus="yes">
        <source>Sweep of %n size(s).</source>
        <translation><numerusform>%n サイズのスイープ。</numerusform></translation>
    </message>
    <message>
        <source>Cannot start the sweep: %1</source>
        <translation>スイープを開始できません: %1</translation>
    </message>
    <message>
        <source>Running size %1 of %2 (%3 workers)...</source>
        <translation>サイズ %1 / %2 を実行中 (ワーカー %3 個)...</translation>
    </message>
    <message>
        <source>Sweep finished. Results: %1</source>
        <translation>スイープが完了しました。結果: %1</translation>
    </message>
    <message>
        <source>Sweep ended with a failed size; see the table and the Run page.</source>
        <translation>失敗したサイズがあります。表と実行ページを見てください。</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>ideal</source>
        <translation>理想</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>実測</translation>
    </message>
    <message numerus="yes">
        <source>%n worker(s)</source>
        <translation><numerusform>ワーカー %n 個</numerusform></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 に書き込めません: %2</translation>
    </message>
</context>
<context>
    <name>ddpdesk::ui::DoctorPanel</name>
    <message>
        <source>Port %1 is free; the Setup page now uses it.</source>
        <translation>ポート %1 は空いています。セットアップページに設定しました。</translation>
    </message>
    <message>
        <source>No free port could be found.</source>
        <translation>空いているポートが見つかりませんでした。</translation>
    </message>
    <message>
        <source>This finding has no automatic fix.</source>
        <translation>この項目には自動の修正がありません。</translation>
    </message>
    <message>
        <source>Store:</source>
        <translation>ストア:</translation>
    </message>
    <message>
        <source>World size:</source>
        <translation>ワールドサイズ:</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>不明</translation>
    </message>
    <message>
        <source>&amp;Diagnose</source>
        <translation>診断(&amp;D)</translation>
    </message>
    <message>
        <source>Check the store, the port and the network (F7)</source>
        <translation>ストア、ポート、ネットワークを確認 (F7)</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>重大度</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>コード</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>所見</translation>
    </message>
    <message>
        <source>Apply fix</source>
        <translation>修正を適用</translation>
    </message>
    <message>
        <source>The doctor checks the rendezvous store, the port and the network before a run starts, when a run stalls, and whenever you press Diagnose.</source>
        <translation>診断は、実行の開始前、実行が止まったとき、そして「診断」を押したときに、ランデブーストア・ポート・ネットワークを確認します。</translation>
    </message>
    <message>
        <source>Diagnosing %1 ...</source>
        <translation>%1 を診断中...</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>エラー</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>情報</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) found that stop the run.</source>
        <translation><numerusform>実行を妨げる問題が %n 件見つかりました。</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>No blocking problem; %n warning(s).</source>
        <translation><numerusform>妨げになる問題はありません。警告 %n 件。</numerusform></translation>
    </message>
    <message>
        <source>No problem found.</source>
        <translation>問題は見つかりませんでした。</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>根拠</translation>
    </message>
    <message>
        <source>How to fix:</source>
        <translation>対処方法:</translation>
    </message>
    <message>
        <source>Delete the stale store file</source>
        <translation>古いストアファイルを削除</translation>
    </message>
    <message>
        <source>Pick a free port</source>
        <translation>空きポートを選ぶ</translation>
    </message>
    <message>
        <source>file:C:\shared\store or tcp://host:29500</source>
        <translation>file:C:\shared\store または tcp://host:29500</translation>
    </message>
</context>
<context>
    <name>ddpdesk::ui::HistoryPanel</name>
    <message>
        <source>Runs folder: %1</source>
        <translation>実行結果フォルダー: %1</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>更新(&amp;R)</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>フォルダーを開く</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>実行</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>ワークロード</translation>
    </message>
    <message>
        <source>World size</source>
        <translation>ワールドサイズ</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>ステップ数</translation>
    </message>
    <message>
        <source>Samples/s</source>
        <translation>サンプル/秒</translation>
    </message>
    <message>
        <source>Final loss</source>
        <translation>最終損失</translation>
    </message>
    <message>
        <source>Loss vs wall time</source>
        <translation>経過時間に対する損失</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>損失</translation>
    </message>
    <message>
        <source>No finished runs yet. Runs started from this app are kept here.</source>
        <translation>完了した実行はまだありません。このアプリで開始した実行はここに残ります。</translation>
    </message>
    <message>
        <source>Select a run to reopen it, or several to compare them.</source>
        <translation>実行を選ぶと開き直せます。複数選ぶと比較できます。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2, world size %3, %4 steps in %5 s, %6 samples/s.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: %2、ワールドサイズ %3、%4 ステップを %5 秒で、%6 サンプル/秒。</translation>
    </message>
    <message>
        <source>Rank %1 failed: %2</source>
        <translation>ランク %1 が失敗: %2</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>ランク %1</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>平均</translation>
    </message>
    <message numerus="yes">
        <source>Comparing %n run(s): mean loss over ranks against wall time.</source>
        <translation><numerusform>%n 件の実行を比較: ランク平均の損失と経過時間。</numerusform></translation>
    </message>
    <message>
        <source>%1 (%2 ranks)</source>
        <translation>%1 (%2 ランク)</translation>
    </message>
    <message>
        <source>Show in Run page</source>
        <translation>実行ページで表示</translation>
    </message>
</context>
<context>
    <name>ddpdesk::ui::MainWindow</name>
    <message>
        <source>The run was not started: the doctor found a problem.</source>
        <translation>実行は開始されませんでした: 診断で問題が見つかりました。</translation>
    </message>
    <message>
        <source>Load profile</source>
        <translation>プロファイルを読み込む</translation>
    </message>
    <message>
        <source>DDP Desk profiles (*.json)</source>
        <translation>DDP Desk プロファイル (*.json)</translation>
    </message>
    <message>
        <source>Save profile</source>
        <translation>プロファイルを保存</translation>
    </message>
    <message>
        <source>About DDP Desk</source>
        <translation>DDP Desk について</translation>
    </message>
    <message>
        <source>&lt;h3&gt;DDP Desk %1&lt;/h3&gt;&lt;p&gt;Point-and-click Distributed Data Parallel training: pick workers or GPUs, press Start, watch every rank train, and let the doctor explain rendezvous problems.&lt;/p&gt;&lt;p&gt;Built with Qt %2.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;DDP Desk %1&lt;/h3&gt;&lt;p&gt;クリック操作で分散データ並列 (DDP) 学習: ワーカーまたは GPU を選んで開始を押すと、すべてのランクの学習を見守れます。ランデブーの問題は診断が説明します。&lt;/p&gt;&lt;p&gt;Qt %2 でビルド。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>DDP Desk</source>
        <translation>DDP Desk</translation>
    </message>
    <message>
        <source>Setup</source>
        <translation>セットアップ</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>実行</translation>
    </message>
    <message>
        <source>Doctor</source>
        <translation>診断</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比較</translation>
    </message>
    <message>
        <source>History</source>
        <translation>履歴</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open profile...</source>
        <translation>プロファイルを開く(&amp;O)...</translation>
    </message>
    <message>
        <source>&amp;Save profile...</source>
        <translation>プロファイルを保存(&amp;S)...</translation>
    </message>
    <message>
        <source>E&amp;xit</source>
        <translation>終了(&amp;X)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>実行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>開始(&amp;S)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Run &amp;demo</source>
        <translation>デモを実行(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Diagnose</source>
        <translation>診断(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>設定(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>言語(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Runs folder...</source>
        <translation>実行結果フォルダー(&amp;R)...</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About DDP Desk</source>
        <translation>DDP Desk について(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Qt について(&amp;Q)</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s), driver %1</source>
        <translation><numerusform>GPU %n 基、ドライバー %1</numerusform></translation>
    </message>
    <message>
        <source>No GPU: CPU workers</source>
        <translation>GPU なし: CPU ワーカー</translation>
    </message>
    <message>
        <source>The %1 translation is missing; staying in English.</source>
        <translation>%1 の翻訳がないため、英語のままにします。</translation>
    </message>
    <message>
        <source>Stop the run?</source>
        <translation>実行を停止しますか?</translation>
    </message>
    <message>
        <source>A run is in progress. Stop every worker and exit?</source>
        <translation>実行中です。すべてのワーカーを停止して終了しますか?</translation>
    </message>
    <message>
        <source>Runs folder</source>
        <translation>実行結果フォルダー</translation>
    </message>
    <message>
        <source>Checking the store...</source>
        <translation>ストアを確認中...</translation>
    </message>
    <message>
        <source>Cannot start: %1</source>
        <translation>開始できません: %1</translation>
    </message>
    <message>
        <source>The run finished.</source>
        <translation>実行が完了しました。</translation>
    </message>
    <message>
        <source>The run failed or was stopped.</source>
        <translation>実行は失敗したか、停止されました。</translation>
    </message>
    <message>
        <source>A rank stopped making progress; see the Doctor page.</source>
        <translation>進まなくなったランクがあります。診断ページを見てください。</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>待機中</translation>
    </message>
    <message>
        <source>Stopping every worker...</source>
        <translation>すべてのワーカーを停止中...</translation>
    </message>
    <message>
        <source>A run is in progress; reopen %1 when it has finished.</source>
        <translation>実行中です。完了してから %1 を開き直してください。</translation>
    </message>
    <message>
        <source>Cannot reopen run</source>
        <translation>実行を開き直せません</translation>
    </message>
</context>
<context>
    <name>ddpdesk::ui::RunPanel</name>
    <message>
        <source>Loss smoothing: %1</source>
        <translation>損失の平滑化: %1</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>開始(&amp;S)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Stop every worker; checkpoints are kept (Shift+F5)</source>
        <translation>すべてのワーカーを停止します。チェックポイントは残ります (Shift+F5)</translation>
    </message>
    <message>
        <source>&amp;Diagnose</source>
        <translation>診断(&amp;D)</translation>
    </message>
    <message>
        <source>Show log</source>
        <translation>ログを表示</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>ランク</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>ステップ</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>損失</translation>
    </message>
    <message>
        <source>Samples/s</source>
        <translation>サンプル/秒</translation>
    </message>
    <message>
        <source>Comm wait</source>
        <translation>通信待ち</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>Exit</source>
        <translation>終了コード</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>グラフ</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>ログ</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>損失</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>スループット</translation>
    </message>
    <message>
        <source>samples/s</source>
        <translation>サンプル/秒</translation>
    </message>
    <message>
        <source>GPU utilization</source>
        <translation>GPU 使用率</translation>
    </message>
    <message>
        <source>CPU per worker</source>
        <translation>ワーカーごとの CPU</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>GPU メモリー</translation>
    </message>
    <message>
        <source>Memory per worker</source>
        <translation>ワーカーごとのメモリー</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>Start the run (F5)</source>
        <translation>実行を開始 (F5)</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>ランク %1</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>ランク %1</translation>
    </message>
    <message>
        <source>Launcher</source>
        <translation>ランチャー</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1 failed.&lt;/b&gt; %2</source>
        <translation>&lt;b&gt;ランク %1 が失敗しました。&lt;/b&gt; %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;The run failed.&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;実行が失敗しました。&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation>最後のエラー: %1</translation>
    </message>
    <message>
        <source>No run yet. Configure one on the Setup page, or press Run demo.</source>
        <translation>まだ実行はありません。セットアップページで設定するか、デモを実行してください。</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>Ended: %1</source>
        <translation>終了: %1</translation>
    </message>
    <message>
        <source>Starting...</source>
        <translation>開始中...</translation>
    </message>
    <message>
        <source>%1% — ETA %2</source>
        <translation>%1% — 残り %2</translation>
    </message>
    <message>
        <source>%1, world size %2: step %3 of %4, %5 samples/s, mean loss %6, %7 elapsed</source>
        <translation>%1、ワールドサイズ %2: ステップ %3 / %4、%5 サンプル/秒、平均損失 %6、経過 %7</translation>
    </message>
    <message>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待機</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>起動中</translation>
    </message>
    <message>
        <source>rendezvous</source>
        <translation>ランデブー</translation>
    </message>
    <message>
        <source>training</source>
        <translation>学習中</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>停止</translation>
    </message>
</context>
<context>
    <name>ddpdesk::ui::SetupPanel</name>
    <message>
        <source>TorchScript models (*.pt *.pth);;All files (*)</source>
        <translation>TorchScript モデル (*.pt *.pth);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Python scripts (*.py);;All files (*)</source>
        <translation>Python スクリプト (*.py);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>FileStore location</source>
        <translation>FileStore の場所</translation>
    </message>
    <message>
        <source>Save profile</source>
        <translation>プロファイルを保存</translation>
    </message>
    <message>
        <source>DDP Desk profiles (*.json)</source>
        <translation>DDP Desk プロファイル (*.json)</translation>
    </message>
    <message>
        <source>Profile saved to %1</source>
        <translation>プロファイルを %1 に保存しました</translation>
    </message>
    <message>
        <source>Load profile</source>
        <translation>プロファイルを読み込む</translation>
    </message>
    <message>
        <source>Profile loaded from %1</source>
        <translation>プロファイルを %1 から読み込みました</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>ワークロード</translation>
    </message>
    <message>
        <source>Autoencoder (synthetic data)</source>
        <translation>オートエンコーダー (合成データ)</translation>
    </message>
    <message>
        <source>Fashion-MNIST classifier</source>
        <translation>Fashion-MNIST 分類器</translation>
    </message>
    <message>
        <source>TorchScript model file</source>
        <translation>TorchScript モデルファイル</translation>
    </message>
    <message>
        <source>Your own script (torchrun environment)</source>
        <translation>独自スクリプト (torchrun 環境)</translation>
    </message>
    <message>
        <source>&amp;Workload:</source>
        <translation>ワークロード(&amp;W):</translation>
    </message>
    <message>
        <source>Model file:</source>
        <translation>モデルファイル:</translation>
    </message>
    <message>
        <source>Script:</source>
        <translation>スクリプト:</translation>
    </message>
    <message>
        <source>Script arguments:</source>
        <translation>スクリプト引数:</translation>
    </message>
    <message>
        <source>Data folder:</source>
        <translation>データフォルダー:</translation>
    </message>
    <message>
        <source>default (built-in dataset location)</source>
        <translation>既定 (組み込みデータセットの場所)</translation>
    </message>
    <message>
        <source>--epochs 3 --lr 0.01</source>
        <translation>--epochs 3 --lr 0.01</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>デバイス</translation>
    </message>
    <message>
        <source>CPU workers</source>
        <translation>CPU ワーカー</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Run on:</source>
        <translation>実行先:</translation>
    </message>
    <message>
        <source>&amp;Processes per node:</source>
        <translation>ノードあたりのプロセス数(&amp;P):</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPU:</translation>
    </message>
    <message>
        <source>Nodes:</source>
        <translation>ノード数:</translation>
    </message>
    <message>
        <source>Node rank:</source>
        <translation>ノードランク:</translation>
    </message>
    <message>
        <source>Backend:</source>
        <translation>バックエンド:</translation>
    </message>
    <message>
        <source>Rendezvous store</source>
        <translation>ランデブーストア</translation>
    </message>
    <message>
        <source>FileStore (file or shared folder)</source>
        <translation>FileStore (ファイルまたは共有フォルダー)</translation>
    </message>
    <message>
        <source>TCPStore (host:port)</source>
        <translation>TCPStore (ホスト:ポート)</translation>
    </message>
    <message>
        <source>Store:</source>
        <translation>ストア:</translation>
    </message>
    <message>
        <source>Store file:</source>
        <translation>ストアファイル:</translation>
    </message>
    <message>
        <source>Master host:</source>
        <translation>マスターホスト:</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>ポート:</translation>
    </message>
    <message>
        <source>default: a fresh file inside the run folder</source>
        <translation>既定: 実行フォルダー内の新しいファイル</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>学習</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>ステップ</translation>
    </message>
    <message>
        <source>epochs</source>
        <translation>エポック</translation>
    </message>
    <message>
        <source>Length:</source>
        <translation>長さ:</translation>
    </message>
    <message>
        <source>&amp;Batch size:</source>
        <translation>バッチサイズ(&amp;B):</translation>
    </message>
    <message>
        <source>&amp;Learning rate:</source>
        <translation>学習率(&amp;L):</translation>
    </message>
    <message>
        <source>Checkpoint every (steps):</source>
        <translation>チェックポイント間隔 (ステップ):</translation>
    </message>
    <message>
        <source>Max restarts:</source>
        <translation>最大再起動回数:</translation>
    </message>
    <message>
        <source>Runs folder:</source>
        <translation>実行結果フォルダー:</translation>
    </message>
    <message>
        <source>never</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>default</source>
        <translation>既定</translation>
    </message>
    <message>
        <source>Resume from the last checkpoint</source>
        <translation>最後のチェックポイントから再開</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>参照...</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>開始(&amp;S)</translation>
    </message>
    <message>
        <source>Start the run (F5)</source>
        <translation>実行を開始 (F5)</translation>
    </message>
    <message>
        <source>Run &amp;demo</source>
        <translation>デモを実行(&amp;D)</translation>
    </message>
    <message>
        <source>Fashion-MNIST on every GPU, or on 2 CPU workers when there is none</source>
        <translation>すべての GPU (GPU がなければ 2 つの CPU ワーカー) で Fashion-MNIST を学習</translation>
    </message>
    <message>
        <source>Copy as command</source>
        <translation>コマンドとしてコピー</translation>
    </message>
    <message>
        <source>Copy as torchrun command</source>
        <translation>torchrun コマンドとしてコピー</translation>
    </message>
    <message>
        <source>Copy as mpirun command</source>
        <translation>mpirun コマンドとしてコピー</translation>
    </message>
    <message>
        <source>Copy as Slurm script</source>
        <translation>Slurm スクリプトとしてコピー</translation>
    </message>
    <message>
        <source>Copy as HPC Pack command</source>
        <translation>HPC Pack コマンドとしてコピー</translation>
    </message>
    <message>
        <source>Save profile...</source>
        <translation>プロファイルを保存...</translation>
    </message>
    <message>
        <source>Load profile...</source>
        <translation>プロファイルを読み込む...</translation>
    </message>
    <message>
        <source>No NVIDIA GPU detected: the run uses CPU workers.</source>
        <translation>NVIDIA GPU が見つかりません: CPU ワーカーで実行します。</translation>
    </message>
    <message>
        <source>GPU %1: %2</source>
        <translation>GPU %1: %2</translation>
    </message>
    <message>
        <source>  — %1% busy</source>
        <translation>  — 使用率 %1%</translation>
    </message>
    <message>
        <source>, %1 / %2 MiB</source>
        <translation>、%1 / %2 MiB</translation>
    </message>
    <message>
        <source>A run is in progress. Stop it on the Run page to start another.</source>
        <translation>実行中です。別の実行を始めるには実行ページで停止してください。</translation>
    </message>
    <message numerus="yes">
        <source>Ready: %n worker(s), world size %1, store %2.</source>
        <translation><numerusform>準備完了: ワーカー %n 個、ワールドサイズ %1、ストア %2。</numerusform></translation>
    </message>
    <message>
        <source>FileStore in the run folder</source>
        <translation>実行フォルダー内の FileStore</translation>
    </message>
    <message>
        <source>Cannot start yet: %1</source>
        <translation>まだ開始できません: %1</translation>
    </message>
    <message>
        <source>Choose a folder</source>
        <translation>フォルダーを選択</translation>
    </message>
    <message>
        <source>Choose a file</source>
        <translation>ファイルを選択</translation>
    </message>
    <message>
        <source>Copied the %1 command to the clipboard.</source>
        <translation>%1 コマンドをクリップボードにコピーしました。</translation>
    </message>
</context>
</TS>