#!/usr/bin/python3
# Fills resources/translations/ddpdesk_ja.ts from this glossary after `lupdate` (target ddpdesk_ui_lupdate) added
# new source texts:  /usr/bin/python3 resources/translations/ja_glossary.py
# Untranslated texts stay "unfinished" so Qt Linguist shows them; Japanese has a single numerus form.
# Caution: lupdate cannot see texts core/launch translates through a context string (QCoreApplication::translate
# in free functions: FailureDiagnosis, RunStore, RunConfig, RunFolder, SecretFile, SweepTrust) and drops them as obsolete;
# add such texts to their <context> in the .ts by hand (an empty translation) and run this script.
import os
import sys
import xml.etree.ElementTree as ET

JA = {
    # Navigation, menus
    "DDP Desk": "DDP Desk",
    "Setup": "セットアップ", "Run": "実行", "Doctor": "診断", "Compare": "比較", "History": "履歴",
    "&File": "ファイル(&F)", "&Open profile...": "プロファイルを開く(&O)...", "&Save profile...": "プロファイルを保存(&S)...",
    "E&xit": "終了(&X)", "&Run": "実行(&R)", "&Start": "開始(&S)", "S&top": "停止(&T)", "Run &demo": "デモを実行(&D)",
    "&Diagnose": "診断(&D)", "&View": "表示(&V)", "&Settings": "設定(&S)", "&Language": "言語(&L)",
    "&Runs folder...": "実行結果フォルダー(&R)...", "&Help": "ヘルプ(&H)", "&About DDP Desk": "DDP Desk について(&A)",
    "About &Qt": "Qt について(&Q)", "About DDP Desk": "DDP Desk について",
    "<h3>DDP Desk %1</h3><p>Point-and-click Distributed Data Parallel training: pick workers or GPUs, press Start, watch every rank train, and let the doctor explain rendezvous problems.</p><p>Built with Qt %2.</p>":
        "<h3>DDP Desk %1</h3><p>クリック操作で分散データ並列 (DDP) 学習: ワーカーまたは GPU を選んで開始を押すと、すべてのランクの学習を見守れます。ランデブーの問題は診断が説明します。</p><p>Qt %2 でビルド。</p>",
    "%n GPU(s), driver %1": "GPU %n 基、ドライバー %1", "No GPU: CPU workers": "GPU なし: CPU ワーカー",
    "The %1 translation is missing; staying in English.": "%1 の翻訳がないため、英語のままにします。",
    "Stop the run?": "実行を停止しますか?", "A run is in progress. Stop every worker and exit?": "実行中です。すべてのワーカーを停止して終了しますか?",
    "Runs folder": "実行結果フォルダー", "Checking the store...": "ストアを確認中...", "Cannot start: %1": "開始できません: %1",
    '%1 ranks': '%1 ランク',
    "this node's ranks only lost a peer: waiting up to %1 s for node 0's word (a stop there) before calling the run failed":
        "このノードのランクはピアを失っただけです: 実行を失敗とする前に、ノード 0 からの知らせ (そこでの停止) を最大 %1 秒待ちます",
    'Last collectives of rank %1 (newest last):': 'ランク %1 の直近のコレクティブ (新しいものが最後):',
    'evaluating': '評価中',
    '%1 is in a validation pass (for %2 s) that the others do not make': '%1 はほかのランクが行わない検証パスの最中です (%2 秒経過)',
    "The others wait for %1's validation pass; the run goes on when it ends. To keep them busy, give every rank a share of the validation set (a DistributedSampler over it, then all_reduce the metric), or validate less often.":
        'ほかのランクは %1 の検証パスを待っています。検証が終われば実行は続きます。待たせないためには、検証データをすべてのランクで分担するか (検証データに DistributedSampler を使い、指標を all_reduce する)、検証の頻度を下げてください。',
    'data loading (%1 ms a step outside forward and backward, against %2 ms on rank %3)':
        'データ読み込み (順伝播と逆伝播の外で 1 ステップあたり %1 ms。ランク %3 では %2 ms)',
    "compute (forward and backward: its time outside them is like the others')":
        '計算 (順伝播と逆伝播。その外の時間はほかのランクと同程度)',
    'compute or data loading (its time outside forward and backward was not reported)':
        '計算かデータ読み込み (順伝播と逆伝播の外の時間は報告されていません)',
    "Find what makes rank %1's %2 slower than the others': different data or work on that rank, a slower device, or a busier machine.":
        'ランク %1 の%2がほかのランクより遅い理由を探してください: そのランクだけ違うデータや処理、より遅いデバイス、あるいは混んだマシン。',
    '%1 bytes': '%1 バイト', '%1 group': 'グループ %1', ' at %1': '、場所 %1', ', completed in %1 ms': '、%1 ms で完了',
    ', started %1 s ago, not completed': '、%1 秒前に開始、未完了', ', not completed': '、未完了',
    'validation passes: %1, %2 s in all (not counted as training time nor training samples)':
        '検証パス: %1 回、合計 %2 秒 (学習時間にも学習サンプルにも数えません)',
    'rank %1 spent %2 s (%3 of the run) in %4 that rank %5 did not make: they waited for it at their next gradient exchange, and more ranks will not shorten it':
        'ランク %1 は、ランク %5 が行わない %4 に計 %2 秒 (実行の %3) を費やしました: ほかのランクは次の勾配交換でそれを待っており、ランクを増やしても短くなりません',
    '%1 validation passes (%2 s)': '検証パス %1 回 (%2 秒)', '%1 checkpoint saves (%2 s)': 'チェックポイント保存 %1 回 (%2 秒)', ' and ': ' と ',
    'Save less often, or save in the background: copy the state to the CPU, then write it from another thread (torch.distributed.checkpoint.async_save in PyTorch 2.3 and later).':
        '保存の頻度を下げるか、バックグラウンドで保存してください: 状態を CPU にコピーしてから別のスレッドで書き出します (PyTorch 2.3 以降は torch.distributed.checkpoint.async_save)。',
    'checkpoint saves: %1, %2 s in all (not counted as training time)': 'チェックポイント保存: %1 回、合計 %2 秒 (学習時間に数えません)',
    'Give every rank a share of the validation set (a DistributedSampler over it, then all_reduce the metric), or validate less often.':
        '検証データをすべてのランクで分担するか (検証データに DistributedSampler を使い、指標を all_reduce する)、検証の頻度を下げてください。',
    'other work on this machine kept %1 of its %2 cores busy while this size ran: its samples/s is below what the machine gives, and the speedups against it are off; run the sweep again on an otherwise idle machine':
        'このサイズの実行中、このマシンの別の処理が %2 コア中 %1 コアを使っていました: samples/s はこのマシン本来の値より低く、それとの速度向上の比較もずれています。ほかに何も動いていないマシンでスイープをやり直してください',
    '%1: n/a, Windows (WDDM) attributes no memory to a process': '%1: n/a。Windows (WDDM) はプロセスごとのメモリを示しません',
    'does nothing for a --script run: the script trains as it is written (change it in the script, or pass it to the script after --)':
        '--script の実行では何も変えません: スクリプトは書かれたとおりに学習します (スクリプトの中で変えるか、-- の後にスクリプトへ渡してください)',
    "The run finished.": "実行が完了しました。", "The run failed or was stopped.": "実行は失敗したか、停止されました。",
    "A rank stopped making progress; see the Doctor page.": "進まなくなったランクがあります。診断ページを見てください。",
    "Running": "実行中", "Idle": "待機中", "Stopping every worker...": "すべてのワーカーを停止中...",
    "The run was not started: the doctor found a problem.": "実行は開始されませんでした: 診断で問題が見つかりました。",
    "Load profile": "プロファイルを読み込む", "Save profile": "プロファイルを保存", "DDP Desk profiles (*.json)": "DDP Desk プロファイル (*.json)",
    "Show in Run page": "実行ページで表示", "Cannot reopen run": "実行を開き直せません",
    "A run is in progress; reopen %1 when it has finished.": "実行中です。完了してから %1 を開き直してください。",
    "Opening %1...": "%1 を開いています...",
    "Still opening the previous run; try %1 again in a moment.": "前の実行をまだ開いています。少し待ってから %1 をもう一度開いてください。",
    # Run page: a multi-node run's nodes
    "no DDP Desk launcher; ranks %1 seen in the store": "DDP Desk のランチャーなし。ランク %1 をストアで確認", "in the store (another launcher)": "ストアにあり (別のランチャー)",
    "this launcher": "このランチャー", "waiting for its launcher": "ランチャーを待機中", "connected": "接続済み", "no contact": "応答なし", "no contact for %1 s": "%1 秒間応答なし", "ended: %1": "終了: %1", "lost: %1": "切断: %1", "Host": "ホスト", "Ranks": "ランク",
    # Setup
    "TorchScript models (*.pt *.pth);;All files (*)": "TorchScript モデル (*.pt *.pth);;すべてのファイル (*)",
    "Python scripts (*.py);;All files (*)": "Python スクリプト (*.py);;すべてのファイル (*)",
    "FileStore location": "FileStore の場所", "Profile saved to %1": "プロファイルを %1 に保存しました",
    "Profile loaded from %1": "プロファイルを %1 から読み込みました", "Workload": "ワークロード",
    "Autoencoder (synthetic data)": "オートエンコーダー (合成データ)", "Fashion-MNIST classifier": "Fashion-MNIST 分類器",
    "TorchScript model file": "TorchScript モデルファイル", "Your own script (torchrun environment)": "独自スクリプト (torchrun 環境)",
    "&Workload:": "ワークロード(&W):", "Model file:": "モデルファイル:", "Script:": "スクリプト:", "Script arguments:": "スクリプト引数:",
    "Data folder:": "データフォルダー:", "default (built-in dataset location)": "既定 (組み込みデータセットの場所)",
    "--epochs 3 --lr 0.01": "--epochs 3 --lr 0.01", "Devices": "デバイス", "CPU workers": "CPU ワーカー", "GPUs": "GPU",
    "Run on:": "実行先:", "&Processes per node:": "ノードあたりのプロセス数(&P):", "GPUs:": "GPU:", "Nodes:": "ノード数:",
    "Node rank:": "ノードランク:", "Backend:": "バックエンド:", "Rendezvous store": "ランデブーストア",
    "FileStore (file or shared folder)": "FileStore (ファイルまたは共有フォルダー)", "TCPStore (host:port)": "TCPStore (ホスト:ポート)",
    "Store:": "ストア:", "Store file:": "ストアファイル:", "Master host:": "マスターホスト:", "Port:": "ポート:",
    "default: a fresh file inside the run folder": "既定: 実行フォルダー内の新しいファイル", "Training": "学習",
    "steps": "ステップ", "epochs": "エポック", "Length:": "長さ:", "&Batch size:": "バッチサイズ(&B):",
    "&Learning rate:": "学習率(&L):", "Checkpoint every (steps):": "チェックポイント間隔 (ステップ):", "Max restarts:": "最大再起動回数:",
    "Runs folder:": "実行結果フォルダー:", "never": "なし", "default": "既定", "Resume from the last checkpoint": "最後のチェックポイントから再開",
    "Browse...": "参照...", "Start the run (F5)": "実行を開始 (F5)",
    "Fashion-MNIST on every GPU, or on 2 CPU workers when there is none": "すべての GPU (GPU がなければ 2 つの CPU ワーカー) で Fashion-MNIST を学習",
    "Copy as command": "コマンドとしてコピー", "Copy as torchrun command": "torchrun コマンドとしてコピー",
    "Copy as mpirun command": "mpirun コマンドとしてコピー", "Copy as Slurm script": "Slurm スクリプトとしてコピー",
    "Copy as HPC Pack command": "HPC Pack コマンドとしてコピー", "Save profile...": "プロファイルを保存...", "Load profile...": "プロファイルを読み込む...",
    "No NVIDIA GPU detected: the run uses CPU workers.": "NVIDIA GPU が見つかりません: CPU ワーカーで実行します。",
    "GPU %1: %2": "GPU %1: %2", "  \u2014 %1% busy": "  \u2014 使用率 %1%", ", %1 / %2 MiB": "、%1 / %2 MiB",
    "A run is in progress. Stop it on the Run page to start another.": "実行中です。別の実行を始めるには実行ページで停止してください。",
    "Ready: %n worker(s), world size %1, store %2.": "準備完了: ワーカー %n 個、ワールドサイズ %1、ストア %2。",
    "FileStore in the run folder": "実行フォルダー内の FileStore", "Cannot start yet: %1": "まだ開始できません: %1",
    "Choose a folder": "フォルダーを選択", "Choose a file": "ファイルを選択", "Copied the %1 command to the clipboard.": "%1 コマンドをクリップボードにコピーしました。",
    # Run
    "Loss smoothing: %1": "損失の平滑化: %1", "Stop every worker; checkpoints are kept (Shift+F5)": "すべてのワーカーを停止します。チェックポイントは残ります (Shift+F5)",
    "Show log": "ログを表示", "Rank": "ランク", "State": "状態", "Step": "ステップ", "Loss": "損失", "Samples/s": "サンプル/秒",
    "Comm wait": "通信待ち", "PID": "PID", "Exit": "終了コード", "Charts": "グラフ", "Logs": "ログ", "seconds": "秒", "loss": "損失",
    "Throughput": "スループット", "samples/s": "サンプル/秒", "GPU utilization": "GPU 使用率", "CPU per worker": "ワーカーごとの CPU",
    "%": "%", "GPU memory": "GPU メモリー", "Memory per worker": "ワーカーごとのメモリー", "MiB": "MiB", "rank %1": "ランク %1",
    "mean": "平均", "Rank %1": "ランク %1", "Launcher": "ランチャー", "<b>Rank %1 failed.</b> %2": "<b>ランク %1 が失敗しました。</b> %2",
    "<b>The run failed.</b> %1": "<b>実行が失敗しました。</b> %1", "Last error: %1": "最後のエラー: %1",
    "No run yet. Configure one on the Setup page, or press Run demo.": "まだ実行はありません。セットアップページで設定するか、デモを実行してください。",
    "Finished": "完了", "Ended: %1": "終了: %1", "Starting...": "開始中...", "%1% \u2014 ETA %2": "%1% \u2014 残り %2",
    "%1, world size %2: step %3 of %4, %5 samples/s, mean loss %6, %7 elapsed": "%1、ワールドサイズ %2: ステップ %3 / %4、%5 サンプル/秒、平均損失 %6、経過 %7",
    "?": "?", "pending": "待機", "starting": "起動中", "rendezvous": "ランデブー", "training": "学習中", "done": "完了",
    "failed": "失敗", "stopped": "停止", "ok": "成功",
    # Doctor
    "Port %1 is free; the Setup page now uses it.": "ポート %1 は空いています。セットアップページに設定しました。",
    "No free port could be found.": "空いているポートが見つかりませんでした。", "This finding has no automatic fix.": "この項目には自動の修正がありません。",
    "file:C:\\shared\\store or tcp://host:29500": "file:C:\\shared\\store または tcp://host:29500", "World size:": "ワールドサイズ:",
    "unknown": "不明", "Check the store, the port and the network (F7)": "ストア、ポート、ネットワークを確認 (F7)", "Severity": "重大度",
    "Code": "コード", "Finding": "所見", "Apply fix": "修正を適用",
    "The doctor checks the rendezvous store, the port and the network before a run starts, when a run stalls, and whenever you press Diagnose.":
        "診断は、実行の開始前、実行が止まったとき、そして「診断」を押したときに、ランデブーストア・ポート・ネットワークを確認します。",
    "Diagnosing %1 ...": "%1 を診断中...", "Error": "エラー", "Warning": "警告", "Info": "情報",
    "%n problem(s) found that stop the run.": "実行を妨げる問題が %n 件見つかりました。",
    "No blocking problem; %n warning(s).": "妨げになる問題はありません。警告 %n 件。", "No problem found.": "問題は見つかりませんでした。",
    "Evidence": "根拠", "How to fix:": "対処方法:", "Delete the stale store file": "古いストアファイルを削除", "Pick a free port": "空きポートを選ぶ",
    # Compare
    "Export CSV": "CSV にエクスポート", "CSV files (*.csv)": "CSV ファイル (*.csv)", "Saved %1": "%1 を保存しました",
    "Export PNG": "PNG にエクスポート", "PNG images (*.png)": "PNG 画像 (*.png)",
    "Sizes (workers, or GPU sets like 0;0,1):": "サイズ (ワーカー数、または 0;0,1 のような GPU の組):", "Run &sweep": "スイープを実行(&S)",
    "Stop": "停止", "Export CSV...": "CSV にエクスポート...", "Export PNG...": "PNG にエクスポート...", "Workers": "ワーカー数",
    "Speedup": "高速化率", "Efficiency": "効率", "Time to target": "目標到達時間", "Final loss": "最終損失", "Speedup vs ideal": "高速化率と理想値",
    "workers": "ワーカー数", "speedup": "高速化率", "Loss vs wall time": "経過時間に対する損失", "mean loss": "平均損失",
    "Runs the Setup configuration once per size, one after another, and compares throughput. Sizes: 1,2,4 or GPU sets 0;0,1;0,1,2,3.":
        "セットアップの設定をサイズごとに順番に実行し、スループットを比較します。サイズ: 1,2,4 または GPU の組 0;0,1;0,1,2,3。",
    "Sweep of %n size(s).": "%n サイズのスイープ。", "Cannot start the sweep: %1": "スイープを開始できません: %1",
    "Running size %1 of %2 (%3 workers)...": "サイズ %1 / %2 を実行中 (ワーカー %3 個)...", "Sweep finished. Results: %1": "スイープが完了しました。結果: %1",
    "Sweep ended with a failed size; see the table and the Run page.": "失敗したサイズがあります。表と実行ページを見てください。",
    "%1 s": "%1 秒", "ideal": "理想", "measured": "実測", "%n worker(s)": "ワーカー %n 個", "Cannot write %1: %2": "%1 に書き込めません: %2",
    # History
    "Runs folder: %1": "実行結果フォルダー: %1", "&Refresh": "更新(&R)", "Open folder": "フォルダーを開く", "Status": "状態",
    "World size": "ワールドサイズ", "Steps": "ステップ数",
    "No finished runs yet. Runs started from this app are kept here.": "完了した実行はまだありません。このアプリで開始した実行はここに残ります。",
    "Select a run to reopen it, or several to compare them.": "実行を選ぶと開き直せます。複数選ぶと比較できます。",
    "<b>%1</b>: %2, world size %3, %4 steps in %5 s, %6 samples/s.": "<b>%1</b>: %2、ワールドサイズ %3、%4 ステップを %5 秒で、%6 サンプル/秒。",
    "Rank %1 failed: %2": "ランク %1 が失敗: %2",
    "Comparing %n run(s): mean loss over ranks against wall time.": "%n 件の実行を比較: ランク平均の損失と経過時間。",
    "Reading the recording...": "記録を読み込んでいます...",
    "Reading %n recording(s)...": "%n 件の記録を読み込んでいます...",
    "%1 (%2 ranks)": "%1 (%2 ランク)",
    # core/launch: run-configuration problems (shown next to Start and on the Setup fields)
    "cannot create folder '%1' (check the path and permissions)": "フォルダー '%1' を作成できません (パスと権限を確認してください)",
    "folder '%1' is not writable: %2": "フォルダー '%1' に書き込めません: %2",
    "'%1' is not a file": "'%1' はファイルではありません",
    "'%1' is not an executable interpreter": "'%1' は実行可能なインタープリターではありません",
    "'%1' is not executable; give --python PATH to run it with an interpreter":
        "'%1' は実行可能ではありません。インタープリターで実行するには --python PATH を指定してください",
    "model file '%1' not found": "モデルファイル '%1' が見つかりません",
    "data folder '%1' not found": "データフォルダー '%1' が見つかりません",
    "FileStore file '%1' already exists (left by an earlier run, or another job is using it); delete it or choose another path":
        "FileStore ファイル '%1' が既に存在します (以前の実行が残したものか、別のジョブが使用中です)。削除するか、別のパスを選んでください",
    "not a valid regular expression: %1": "正しい正規表現ではありません: %1",
    "unknown workload '%1'; valid: %2": "不明なワークロード '%1' です。有効な値: %2",
    "the torchscript workload needs --model FILE": "torchscript ワークロードには --model FILE が必要です",
    "%1 workers is not valid; use 1..%2": "ワーカー数 %1 は無効です。1..%2 を指定してください",
    "'%1' is neither 'cpu' nor a GPU list like 0,1": "'%1' は 'cpu' でも 0,1 のような GPU リストでもありません",
    "--nproc %1 does not match the %2 GPU(s) in --devices %3 (one worker per GPU)":
        "--nproc %1 が --devices %3 の GPU 数 %2 と一致しません (GPU 1 基につきワーカー 1 つ)",
    "%1 nodes is not valid; use 1 or more": "ノード数 %1 は無効です。1 以上を指定してください",
    "node rank %1 is out of range: with --nnodes %2 valid node ranks are 0..%3 (its ranks would not be below world size %4)":
        "ノードランク %1 は範囲外です: --nnodes %2 では有効なノードランクは 0..%3 です (そのランクがワールドサイズ %4 未満になりません)",
    "'%1' has no host; use tcp://HOST:PORT": "'%1' にホストがありません。tcp://HOST:PORT の形式で指定してください",
    "port in '%1' must be 1..65535": "'%1' のポートは 1..65535 でなければなりません",
    "'file:' needs a path, e.g. file:C:/share/run1/store": "'file:' にはパスが必要です (例: file:C:/share/run1/store)",
    "'%1' is not a store; use file:PATH or tcp://HOST:PORT": "'%1' はストアではありません。file:PATH または tcp://HOST:PORT を指定してください",
    "with --nnodes %1 every node must reach the same store: give tcp://NODE0_ADDRESS:PORT or file:SHARED_FOLDER/store":
        "--nnodes %1 ではすべてのノードが同じストアに到達できる必要があります: tcp://NODE0_ADDRESS:PORT または file:SHARED_FOLDER/store を指定してください",
    "%1 is not valid; use 1 or more": "%1 は無効です。1 以上を指定してください",
    "give either %1 or %2, not both": "%1 と %2 はどちらか一方だけを指定してください",
    "Accumulate steps:": "勾配累積:",
    "Gradient compression:": "勾配圧縮:",
    'The run completed, but its ranks ended with different parameters (their params_sha256 differ): DDP keeps every rank identical, so something on some rank changed the model outside the gradient exchange.':
        '実行は完了しましたが、ランクの最終パラメーターが一致しません (params_sha256 が異なります)。DDP はすべてのランクを同一に保つため、どこかのランクで勾配交換以外の経路でモデルが変更されています。',
    "Look for code that touches parameters on one rank only, a non-deterministic custom operation, or ranks on different LibTorch builds; train.equivalence-style runs with --grad-transport gloo narrow it down. Use rank 0's model.pt, which is the one saved.":
        '1 つのランクだけでパラメーターを変更するコード、非決定的なカスタム演算、LibTorch ビルドの異なるランクがないか確認してください。--grad-transport gloo で train.equivalence 形式の実行をすると原因を絞り込めます。保存されるのはランク 0 の model.pt です。',
    "Gradients/step": "勾配/ステップ",
    "none (fp32)": "なし (fp32)",
    "fp16 (half the bytes)": "fp16 (通信量半分)",
    "bf16 (half the bytes)": "bf16 (通信量半分)",
    "Gradient buckets travel in 16 bits and are cast back after the exchange, as PyTorch's compression hooks do: half the traffic between ranks, every rank still identical.":
        "勾配バケットを 16 ビットで送り、交換後に元の精度へ戻します (PyTorch の圧縮フックと同じ)。ランク間の通信量は半分になり、すべてのランクの結果は同一のままです。",
    "off": "オフ",
    "Micro-batches of the batch size per optimizer step: gradients add up and are exchanged once per step (DDP's no_sync), so a step sees this many times the batch at the memory cost of one.":
        "オプティマイザーの 1 ステップあたりのマイクロバッチ数です。勾配を足し合わせてステップごとに 1 回だけ交換する (DDP の no_sync) ため、1 バッチ分のメモリでこの倍数のバッチを学習できます。",
    "must be at least 1 (got %1)": "1 以上を指定してください (指定値 %1)",
    "must be 0 or more (got %1)": "0 以上を指定してください (指定値 %1)",
    "must be a positive number (got %1)": "正の数を指定してください (指定値 %1)",
    "'%1' is not valid; use %2": "'%1' は無効です。%2 のいずれかを指定してください",
    "give either --epochs or --steps, not both": "--epochs と --steps はどちらか一方だけを指定してください",
    "learning rate %1 is not valid; use a positive number": "学習率 %1 は無効です。正の数を指定してください",
    "%1 is not valid; use 0 (automatic) or more": "%1 は無効です。0 (自動) 以上を指定してください",
    "%1 is not valid; use a positive size in MiB": "%1 は無効です。MiB 単位の正のサイズを指定してください",
    "%1 is not valid; use 0 (off) or more steps": "%1 は無効です。0 (オフ) 以上のステップ数を指定してください",
    "'%1' is not valid; use auto, shm or gloo": "'%1' は無効です。auto、shm、gloo のいずれかを指定してください",
    "%1 is not valid; use 0 or more": "%1 は無効です。0 以上を指定してください",
    "%1 s is not valid; use 1 or more seconds": "%1 秒は無効です。1 秒以上を指定してください",
    "%1 s is not valid; use 0 (off) or more seconds": "%1 秒は無効です。0 (オフ) 以上の秒数を指定してください",
    "an output folder is required (--out DIR)": "出力フォルダーが必要です (--out DIR)",
    "cannot write profile '%1': %2": "プロファイル '%1' を書き込めません: %2",
    "cannot read profile '%1': %2": "プロファイル '%1' を読み込めません: %2",
    "profile '%1' is not a JSON object: %2": "プロファイル '%1' は JSON オブジェクトではありません: %2",
    # core/launch: run messages, exit texts and failure summaries (Run page, status bar, History)
    "cannot write '%1': %2": "'%1' に書き込めません: %2",
    "checkpoint at step %1: %2": "ステップ %1 でチェックポイント: %2",
    "cannot read %1: %2": "%1 を読み込めません: %2",
    "%1 has no rank_start or hello event: not a ddpdesk run recording":
        "%1 に rank_start イベントも hello イベントもありません: ddpdesk の実行記録ではありません",
    "the recording has no summary.json": "記録に summary.json がありません",
    "ddpdesk-worker not found next to this program (%1); reinstall DDP Desk or set DDPDESK_WORKER to its path":
        "このプログラムと同じ場所に ddpdesk-worker が見つかりません (%1)。DDP Desk を再インストールするか、DDPDESK_WORKER にそのパスを設定してください",
    "DDPDESK_WORKER=%1 is not an executable file": "DDPDESK_WORKER=%1 は実行可能ファイルではありません",
    "a run is already in progress": "既に実行中です",
    "could not start %1: %2": "%1 を起動できませんでした: %2",
    "rank %1 %2": "ランク %1: %2",
    "%1 (stopped by the launcher)": "%1 (ランチャーが停止)",
    "stopping all workers: %1": "すべてのワーカーを停止中: %1",
    "rank %1 did not stop within %2 ms; killing it": "ランク %1 が %2 ms 以内に停止しなかったため、強制終了します",
    "%1; restarting all workers from the last checkpoint (restart %2 of %3)":
        "%1。最後のチェックポイントからすべてのワーカーを再起動します (再起動 %2/%3 回目)",
    "%1 (first failure; %2 rank(s) failed in all)": "%1 (最初の失敗。失敗したランクは計 %2 個)",
    "%1 (first failure)": "%1 (最初の失敗)",
    "could not write %1: %2": "%1 を書き込めませんでした: %2",
    "step %1": "ステップ %1",
    "rank %1: %2": "ランク %1: %2",
    "rank(s) behind: %1": "遅れているランク: %1",
    "rank(s) %1 all stuck at the same point": "ランク %1 がすべて同じ地点で停止しています",
    "stall: %1": "停滞: %1",
    "no progress for %1 s; %2 [%3]": "%1 秒間進捗がありません。%2 [%3]",
    "doctor could not run: %1": "診断を実行できませんでした: %1",
    "resource monitor not available: %1": "リソースモニターを利用できません: %1",
    "exit code %1": "終了コード %1",
    "killed by signal %1 (%2)": "シグナル %1 (%2) で強制終了",
    "killed by signal %1": "シグナル %1 で強制終了",
    "--nproc-list: '%1' is not a worker count; use a list like 1,2,4": "--nproc-list: '%1' はワーカー数ではありません。1,2,4 のようなリストを指定してください",
    "--nproc-list: empty; use a list like 1,2,4": "--nproc-list: 空です。1,2,4 のようなリストを指定してください",
    "--gpu-sets: '%1' is not a GPU index; use sets like 0;0,1;0,1,2,3": "--gpu-sets: '%1' は GPU 番号ではありません。0;0,1;0,1,2,3 のような組を指定してください",
    "--gpu-sets: empty; use sets like 0;0,1;0,1,2,3": "--gpu-sets: 空です。0;0,1;0,1,2,3 のような組を指定してください",
    "no sizes to run; use --nproc-list 1,2,4": "実行するサイズがありません。--nproc-list 1,2,4 のように指定してください",
    "sweep stopped by the user": "ユーザーがスイープを停止しました",
    "the application closed": "アプリケーションが終了しました",
    "stopped by the user": "ユーザーが停止しました",
    # Doctor findings (ui/doctor_texts.cpp, keyed by the doctor's stable codes)
    "The diagnosis itself failed: %1": "診断そのものが失敗しました: %1",
    "World size %1 is not valid.": "ワールドサイズ %1 は無効です。",
    "Use the total number of ranks over all nodes (1 or more).": "全ノードのランクの合計数 (1 以上) を指定してください。",
    "The ranks in this store were started with a different world size than the one given.":
        "このストアのランクは、指定されたものとは異なるワールドサイズで起動されています。",
    "Start every rank with the same --world-size (the total number of ranks).":
        "すべてのランクを同じ --world-size (ランクの合計数) で起動してください。",
    "The ranks in this store were started with a different world size than each other.":
        "このストアのランクは、互いに異なるワールドサイズで起動されています。",
    "The job in this store runs with a world size of at least %1, not %2.":
        "このストアのジョブはワールドサイズ %2 ではなく、少なくとも %1 で実行されています。",
    "Start every rank with the same --world-size (the total number of ranks over all nodes).":
        "すべてのランクを同じ --world-size (全ノードのランクの合計数) で起動してください。",
    "Rank %1 is outside 0..%2 for world size %3.": "ランク %1 はワールドサイズ %3 の範囲 0..%2 の外です。",
    "Ranks run from 0 to world_size-1; check --rank and --world-size on every node.":
        "ランクは 0 から world_size-1 までです。すべてのノードで --rank と --world-size を確認してください。",
    "Rank(s) %1 arrived, but with world size %2 ranks must be 0..%3.":
        "ランク %1 が到着しましたが、ワールドサイズ %2 ではランクは 0..%3 でなければなりません。",
    "Use ranks 0..world_size-1 and the same world size on every node.":
        "すべてのノードでランク 0..world_size-1 と同じワールドサイズを使ってください。",
    "Node rank %1 is not valid.": "ノードランク %1 は無効です。",
    "Node ranks start at 0 (the master node).": "ノードランクは 0 (マスターノード) から始まります。",
    "Store address: %1.": "ストアのアドレス: %1。",
    "Use file:PATH (one machine or a shared folder) or tcp://HOST:PORT.":
        "file:PATH (1 台のマシンまたは共有フォルダー) か tcp://HOST:PORT を使ってください。",
    "No rank has arrived in this store yet.": "このストアにはまだどのランクも到着していません。",
    "Rank(s) %1 joined this store more than once: two launches (or a stale store from an earlier run) share it.":
        "ランク %1 がこのストアに複数回参加しています: 2 つの起動 (または以前の実行が残した古いストア) が同じストアを共有しています。",
    "Stop the other launch, or delete the stale store file and start once.":
        "もう一方の起動を停止するか、古いストアファイルを削除してから 1 回だけ起動してください。",
    "Rank %1 has already joined this store; starting it again makes two processes claim the same rank.":
        "ランク %1 は既にこのストアに参加しています。再度起動すると 2 つのプロセスが同じランクを名乗ることになります。",
    "Give each process its own rank 0..world_size-1, or use a fresh store.":
        "各プロセスに固有のランク 0..world_size-1 を割り当てるか、新しいストアを使ってください。",
    "More processes joined this store (%1) than the world size (%2): a stale store or a double launch; torch's store-based barrier then waits forever.":
        "このストアに参加したプロセス数 (%1) がワールドサイズ (%2) を超えています: 古いストアか二重起動が原因です。このままでは torch のストアベースのバリアが永久に待ち続けます。",
    "Stop the other launch that uses this store, or delete the stale store file / pick a fresh port, then start all ranks once.":
        "このストアを使っているもう一方の起動を停止するか、古いストアファイルを削除する / 新しいポートを選んでから、すべてのランクを 1 回だけ起動してください。",
    "%1 of %2 ranks arrived; rank(s) %3 never joined, so the others wait in rendezvous.":
        "%2 ランク中 %1 ランクが到着しました。ランク %3 が参加していないため、他のランクはランデブーで待機しています。",
    "Start the missing rank(s) with the same store and world size, or check why they failed (their log, their node's reachability of the store).":
        "足りないランクを同じストアとワールドサイズで起動するか、失敗した原因 (そのログ、そのノードからストアに到達できるか) を確認してください。",
    "%1 of %2 ranks arrived; %3 rank(s) never joined, so the others wait in rendezvous.":
        "%2 ランク中 %1 ランクが到着しました。%3 ランクが参加していないため、他のランクはランデブーで待機しています。",
    "All %1 ranks arrived.": "全 %1 ランクが到着しました。",
    "%1 rank(s) arrived; pass the world size to learn which are missing.":
        "%1 ランクが到着しました。どのランクが足りないかを知るにはワールドサイズを指定してください。",
    "Rank %1 (pid %2) arrived but has exited since.": "ランク %1 (pid %2) は到着しましたが、その後終了しています。",
    "Read that rank's log for its error; restart the job.": "そのランクのログでエラーを確認し、ジョブを再起動してください。",
    "The folder for the store file does not exist: %1 (c10d would wait on it until the timeout instead of failing).":
        "ストアファイルのフォルダーが存在しません: %1 (c10d は失敗せず、タイムアウトまで待ち続けます)。",
    "Create the folder, or choose a store path in an existing folder.":
        "フォルダーを作成するか、既存のフォルダー内のストアパスを選んでください。",
    "%1 is a folder; the store needs a file path.": "%1 はフォルダーです。ストアにはファイルのパスが必要です。",
    "Use a file inside that folder, e.g. %2.": "そのフォルダー内のファイルを使ってください (例: %2)。",
    "The store file cannot be written: %1.": "ストアファイルに書き込めません: %1。",
    "Choose a folder every rank can write to (check permissions, read-only mounts and network-share access).":
        "すべてのランクが書き込めるフォルダーを選んでください (権限、読み取り専用マウント、ネットワーク共有へのアクセスを確認してください)。",
    "The job is said to be running but its store file does not exist: it was deleted under the job (an early destroy_process_group, a cleanup, or a second launch on the same store: c10d's FileStore deletes the file once as many ranks as the world size have exited) or the path differs.":
        "ジョブは実行中のはずですが、ストアファイルが存在しません: ジョブの実行中に削除された (早すぎる destroy_process_group、クリーンアップ、または同じストアでの 2 回目の起動: c10d の FileStore はワールドサイズと同じ数のランクが終了するとファイルを削除します) か、パスが異なります。",
    "Check that every rank uses exactly this path and that no second launch shares it; restart the job.":
        "すべてのランクがまったく同じパスを使い、2 回目の起動がそれを共有していないことを確認し、ジョブを再起動してください。",
    "The folder is writable and no old store file is in the way.": "フォルダーは書き込み可能で、邪魔になる古いストアファイルはありません。",
    "%1.": "%1。",
    "Pick another store path; this file belongs to something else.": "別のストアパスを選んでください。このファイルは別の用途のものです。",
    "An empty store file exists; c10d can reuse it.": "空のストアファイルがあります。c10d はこれを再利用できます。",
    "No live process uses this store any more: the job has exited or was killed.":
        "このストアを使っている稼働中のプロセスはもうありません: ジョブは終了したか、強制終了されました。",
    "Restart the job; delete the store file first (it holds the old run's keys).":
        "ジョブを再起動してください。先にストアファイルを削除してください (以前の実行のキーが残っています)。",
    "A store file from an earlier run is in the way (%1 keys, last written %2 s ago); new ranks would mix with its keys and hang or miscount.":
        "以前の実行のストアファイルが残っています (キー %1 個、最終書き込みは %2 秒前)。新しいランクがそのキーと混ざり、停止したり数を誤ったりします。",
    "Delete %3 (no live process uses it), or choose a new path.":
        "%3 を削除する (使用中のプロセスはありません) か、新しいパスを選んでください。",
    "Another live process holds the store file: %1.": "稼働中の別のプロセスがストアファイルを保持しています: %1。",
    "End that process (or let its run finish), or pick another store path. If it is the job you want to diagnose, run the doctor with --running.":
        "そのプロセスを終了する (またはその実行の完了を待つ) か、別のストアパスを選んでください。それが診断したいジョブであれば、--running を付けて診断を実行してください。",
    "A live run is using this store file: %1.": "稼働中の実行がこのストアファイルを使っています: %1。",
    "The job's store is live: %1.": "ジョブのストアは稼働中です: %1。",
    "Port %1 is already taken by %2: a TCPStore of another job is listening there (%3 keys). The TCPStore on node 0 could not listen there (errno 98, address in use).":
        "ポート %1 は既に %2 が使用しています: 別のジョブの TCPStore が待ち受けています (キー %3 個)。ノード 0 の TCPStore はこのポートで待ち受けできません (errno 98、アドレス使用中)。",
    "Use a free port, e.g. %4, or end %2.": "空いているポート (例: %4) を使うか、%2 を終了してください。",
    "Port %1 is already taken by %2: something that is not a TCPStore listens there (%3). The TCPStore on node 0 could not listen there (errno 98, address in use).":
        "ポート %1 は既に %2 が使用しています: TCPStore ではないものが待ち受けています (%3)。ノード 0 の TCPStore はこのポートで待ち受けできません (errno 98、アドレス使用中)。",
    "Port %1 is already taken by %2: a socket is bound to it (not listening yet). The TCPStore on node 0 could not listen there (errno 98, address in use).":
        "ポート %1 は既に %2 が使用しています: ソケットがバインドされています (まだ待ち受けていません)。ノード 0 の TCPStore はこのポートで待ち受けできません (errno 98、アドレス使用中)。",
    "This node's hostname '%1' resolves only to loopback (%2), so Gloo would advertise an address other nodes cannot reach (they fail with 'connect [127.0.1.1]: Connection refused'). Harmless while every rank runs on this machine.":
        "このノードのホスト名 '%1' はループバック (%2) にしか解決されないため、Gloo は他のノードから到達できないアドレスを通知します (他のノードは 'connect [127.0.1.1]: Connection refused' で失敗します)。すべてのランクがこのマシンで動く間は問題ありません。",
    "For multi-node runs set GLOO_SOCKET_IFNAME to this node's network interface (e.g. eth0), or map the hostname to the real address in /etc/hosts.":
        "複数ノードで実行するときは GLOO_SOCKET_IFNAME にこのノードのネットワークインターフェース (例: eth0) を設定するか、/etc/hosts でホスト名を実際のアドレスに対応付けてください。",
    "'%1' is not a usable TCP port (expected a number 1..65535).": "'%1' は使用できる TCP ポートではありません (1..65535 の数値が必要です)。",
    "Use a port such as %2 (29500 is PyTorch's default).": "%2 などのポートを使ってください (PyTorch の既定は 29500 です)。",
    "The store host '%1' does not resolve: %2.": "ストアのホスト '%1' を名前解決できません: %2。",
    "Use the master node's IP address, or fix its name in DNS or the hosts file.":
        "マスターノードの IP アドレスを使うか、DNS または hosts ファイルでその名前を修正してください。",
    "Node %1 would connect to %2, which is this machine itself, not the master node.":
        "ノード %1 は %2 に接続しようとしていますが、これはマスターノードではなくこのマシン自身です。",
    "Use the master node's network address in the store address.": "ストアのアドレスにはマスターノードのネットワークアドレスを使ってください。",
    "A TCPStore answers at %1:%2 (%3 keys).": "%1:%2 で TCPStore が応答しています (キー %3 個)。",
    "Something listens at %1:%2 but does not answer like a c10d TCPStore: %3.":
        "%1:%2 で何かが待ち受けていますが、c10d の TCPStore として応答しません: %3。",
    "Check the port: another service owns it. Point every rank at the port the master's TCPStore really uses.":
        "ポートを確認してください: 別のサービスが使っています。すべてのランクを、マスターの TCPStore が実際に使っているポートに向けてください。",
    "The OS refuses to let this node listen on port %1 (%2): on Windows it lies in an excluded port range (see 'netsh interface ipv4 show excludedportrange protocol=tcp'); on Linux ports below 1024 need privileges.":
        "OS がこのノードでのポート %1 の待ち受けを拒否しています (%2): Windows では除外ポート範囲内にあります ('netsh interface ipv4 show excludedportrange protocol=tcp' を参照)。Linux では 1024 未満のポートに特権が必要です。",
    "Pick a port outside those ranges, e.g. %3.": "それらの範囲外のポート (例: %3) を選んでください。",
    "Port %1 is free for the TCPStore.": "ポート %1 は TCPStore に使用できます。",
    "Nothing listens at %1:%2: the master (node 0, rank 0) has not started yet or has crashed.":
        "%1:%2 では何も待ち受けていません: マスター (ノード 0、ランク 0) がまだ起動していないか、クラッシュしています。",
    "Start node 0 first (it hosts the TCPStore), check it is still running, and that every node uses the same host and port.":
        "ノード 0 (TCPStore をホストします) を最初に起動し、それが動き続けていること、すべてのノードが同じホストとポートを使っていることを確認してください。",
    "No answer from %1:%2 within %3 ms: packets are dropped, typically by a firewall. Note that Gloo also opens further pairwise connections between all nodes on other (ephemeral) ports, so opening only the store port is not enough.":
        "%1:%2 から %3 ms 以内に応答がありません: パケットが破棄されています (多くはファイアウォールによるもの)。Gloo はすべてのノード間で別の (エフェメラル) ポートにも接続を開くため、ストアのポートだけを開放しても不十分です。",
    "Allow the program (ddpdesk-worker / python) through the firewall on every node rather than a single port, and check that the master address is right.":
        "単一のポートではなく、プログラム (ddpdesk-worker / python) をすべてのノードのファイアウォールで許可し、マスターのアドレスが正しいか確認してください。",
    "Cannot reach %1:%2: %3.": "%1:%2 に到達できません: %3。",
    "Check the network route to the master node and its address.": "マスターノードへのネットワーク経路とそのアドレスを確認してください。",
    "Deleted the stale store file %1.": "古いストアファイル %1 を削除しました。",
    # Issue 13: the stale-store fix renames aside and asks first; not-stale-yet and counted census wordings.
    'Rename the stale store file aside':
        '古いストアファイルの名前を変更して退避',
    "Rename %1 to %2?\n\nNew runs can then use the store path again; the old run's keys stay in the renamed file, and nothing is deleted. A rank that still waited on the old store would time out.":
        '%1 の名前を %2 に変更しますか?\n\n新しい実行は再びこのストアパスを使えるようになります。以前の実行のキーは名前を変更したファイルに残り、何も削除されません。古いストアでまだ待機しているランクがあれば、そのランクはタイムアウトします。',
    'Nothing was changed.':
        '何も変更していません。',
    '%1 of %2 ranks arrived (by the barrier counter); which ones is not recorded. The others wait in rendezvous.':
        '%2 ランク中 %1 ランクが到着しました (バリアのカウンターによる)。どのランクかは記録されていません。他のランクはランデブーで待機しています。',
    "%1 of %2 ranks arrived (by the TCPStore's client counter); which ones is not recorded. The others wait in rendezvous.":
        '%2 ランク中 %1 ランクが到着しました (TCPStore のクライアントカウンターによる)。どのランクかは記録されていません。他のランクはランデブーで待機しています。',
    "Restart the job; rename the store file aside first (it holds the old run's keys).":
        'ジョブを再起動してください。先にストアファイルの名前を変更して退避してください (以前の実行のキーが残っています)。',
    'A store file from an earlier run is in the way (%1 keys, last written %4 s ago, longer than ranks wait in rendezvous (%5)); new ranks would mix with its keys and hang or miscount.':
        '以前の実行のストアファイルが残っています (キー %1 個、最終書き込みは %4 秒前で、ランクがランデブーで待つ時間 (%5) より長く経っています)。新しいランクがそのキーと混ざり、停止したり数を誤ったりします。',
    'A store file from an earlier run is in the way (%1 keys, %4 of %5 ranks arrived and none is running here); new ranks would mix with its keys and hang or miscount.':
        '以前の実行のストアファイルが残っています (キー %1 個、%5 ランク中 %4 ランクが到着済みで、このマシンで動いているものはありません)。新しいランクがそのキーと混ざり、停止したり数を誤ったりします。',
    'Rename %3 aside (no live process uses it; it becomes NAME.stale-DATE-TIME), or choose a new path.':
        '%3 の名前を変更して退避する (使用中のプロセスはありません。名前は NAME.stale-日付-時刻 になります) か、新しいパスを選んでください。',
    'No process here is seen using the store file, but it is not stale: this is node %1: ranks on another node that shares this folder may still be waiting on the store, and this node cannot see them; only node 0 (or --force) calls it stale.':
        'このマシンではストアファイルを使っているプロセスは見えませんが、古いとは言えません: ここはノード %1 です。このフォルダーを共有する別のノードのランクがまだストアで待機しているかもしれず、このノードからは見えません。古いと判断するのはノード 0 (または --force) だけです。',
    'Run the doctor on node 0, or pass --force once no node uses %2; or choose a new store path.':
        'ノード 0 で診断を実行するか、どのノードも %2 を使っていなくなってから --force を指定するか、新しいストアパスを選んでください。',
    'No process here is seen using the store file, but it is not stale: %1 of %2 ranks arrived, last write %3 s ago; ranks may wait up to %4: not stale yet.':
        'このマシンではストアファイルを使っているプロセスは見えませんが、古いとは言えません: %2 ランク中 %1 ランクが到着し、最終書き込みは %3 秒前です。ランクは最大 %4 待機することがあるため、まだ古くありません。',
    'No process here is seen using the store file, but it is not stale: %1 rank(s) arrived, last write %2 s ago, and the world size is unknown; ranks may wait up to %3: not stale yet.':
        'このマシンではストアファイルを使っているプロセスは見えませんが、古いとは言えません: %1 ランクが到着し、最終書き込みは %2 秒前で、ワールドサイズは不明です。ランクは最大 %3 待機することがあるため、まだ古くありません。',
    'If this run is wanted, start its missing ranks; if not, choose a new store path (or, once no rank waits, pass a shorter --rendezvous-timeout).':
        'この実行が必要なら、不足しているランクを起動してください。不要なら、新しいストアパスを選んでください (または、待機しているランクがなくなってから、より短い --rendezvous-timeout を指定してください)。',
    'Renamed the stale store file %1 to %2 (nothing was deleted).':
        '古いストアファイル %1 の名前を %2 に変更しました (何も削除していません)。',
    'Nothing to rename: %1 is not an existing file.':
        '名前を変更するものはありません: %1 は既存のファイルではありません。',
    'Refused: %1 is a symbolic link; the fix never follows links, so neither the link nor its target is changed.':
        '拒否しました: %1 はシンボリックリンクです。この修正はリンクをたどらないため、リンクもリンク先も変更しません。',
    'Refused: %1, so it is left as it is.':
        '拒否しました: %1 のため、そのままにします。',
    'Refused: this is node %1: ranks on another node that shares this folder may still be waiting on the store, and this node cannot see them; only node 0 (or --force) calls it stale.':
        '拒否しました: ここはノード %1 です。このフォルダーを共有する別のノードのランクがまだストアで待機しているかもしれず、このノードからは見えません。古いと判断するのはノード 0 (または --force) だけです。',
    'Refused: %1 of %2 ranks arrived, last write %3 s ago; ranks may wait up to %4: not stale yet.':
        '拒否しました: %2 ランク中 %1 ランクが到着し、最終書き込みは %3 秒前です。ランクは最大 %4 待機することがあるため、まだ古くありません。',
    'Refused: %1 rank(s) arrived, last write %2 s ago, and the world size is unknown; ranks may wait up to %3: not stale yet.':
        '拒否しました: %1 ランクが到着し、最終書き込みは %2 秒前で、ワールドサイズは不明です。ランクは最大 %3 待機することがあるため、まだ古くありません。',
    'Could not rename %1: %2':
        '%1 の名前を変更できませんでした: %2',
    "Nothing to delete: %1 is not an existing file.": "削除するものはありません: %1 は既存のファイルではありません。",
    "Refused: %1, so it is not deleted.": "拒否しました: %1 のため、削除しません。",
    "Refused: the store is in use (%1). End that run first.": "拒否しました: ストアは使用中です (%1)。先にその実行を終了してください。",
    "Could not delete %1: %2": "%1 を削除できませんでした: %2",
    "another process": "別のプロセス",
    # FileStore folder safety, addresses, run secret, stacks, script working folder, doctor deadline and exposure
    "'%1' is a link; the default FileStore folder must be a plain folder DDP Desk creates (it never writes or deletes through a link): remove the link, choose another --out or give --store file:PATH":
        "'%1' はリンクです。既定の FileStore フォルダーは DDP Desk が作成する通常のフォルダーである必要があります (リンク越しに書き込みや削除はしません)。リンクを外すか、別の --out を選ぶか、--store file:PATH を指定してください",
    "'%1' is a file, where DDP Desk keeps the default FileStore folder; move it away, choose another --out or give --store file:PATH":
        "'%1' はファイルですが、ここは DDP Desk が既定の FileStore フォルダーを置く場所です。移動するか、別の --out を選ぶか、--store file:PATH を指定してください",
    "FileStore file '%1' already exists (left by an earlier run that did not end cleanly, or another job is using it); DDP Desk does not delete it: check it with `ddpdesk-cli doctor`, then move it away, or choose another path":
        "FileStore ファイル '%1' が既に存在します (正常に終了しなかった以前の実行が残したものか、別のジョブが使用中です)。DDP Desk は削除しません。`ddpdesk-cli doctor` で確認してから移動するか、別のパスを選んでください",
    "folder '%1' holds files DDP Desk did not put there (%2); the default FileStore folder must be empty or absent: move them, choose another --out or give --store file:PATH":
        "フォルダー '%1' には DDP Desk が置いていないファイルがあります (%2)。既定の FileStore フォルダーは空か存在しない必要があります。移動するか、別の --out を選ぶか、--store file:PATH を指定してください",
    "'%1' is a %2; DDP Desk writes %3 itself and never writes through a link or over a folder: move it away or choose another --out":
        "'%1' は%2です。DDP Desk は %3 を自分で書き込み、リンク越しやフォルダーの上には書き込みません。移動するか、別の --out を選んでください",
    'link':
        'リンク',
    'folder':
        'フォルダー',
    'special file':
        '特殊ファイル',
    'contains a line break, which a cmd.exe command line (--format hpcpack) cannot carry':
        '改行を含んでいます。cmd.exe のコマンドライン (--format hpcpack) では改行を渡せません',
    'Rank %1 failed first: its output and exit status show the cause.':
        'ランク %1 が最初に失敗しました: 原因はその出力と終了状態から分かります。',
    'Rank %1 failed first (%2): its output and exit status show the cause.':
        'ランク %1 が最初に失敗しました (%2): 原因はその出力と終了状態から分かります。',
    '<b>Why [%1]:</b> %2':
        '<b>原因 [%1]:</b> %2',
    '<b>Fix:</b> %1':
        '<b>対処方法:</b> %1',
    "working folder '%1' not found":
        "作業フォルダー '%1' が見つかりません",
    "'%1' in brackets is not an IPv6 address":
        "角かっこ内の '%1' は IPv6 アドレスではありません",
    "'%1' is not an IPv4 address (each number is 0..255)":
        "'%1' は IPv4 アドレスではありません (各数値は 0..255)",
    "'%1' looks like an IPv6 address; write it in brackets: tcp://[ADDRESS]:PORT":
        "'%1' は IPv6 アドレスのようです。角かっこで囲んでください: tcp://[ADDRESS]:PORT",
    "'%1' is not a valid host name (letters, digits, '-' and '.' only, e.g. node0 or node0.cluster.local)":
        "'%1' は有効なホスト名ではありません (使えるのは英字、数字、'-'、'.' のみです。例: node0、node0.cluster.local)",
    "'%1' is neither 'cpu' nor a GPU list: use GPU indices like 0,1 or UUIDs like GPU-xxxxxxxx-xxxx-... separated by commas":
        "'%1' は 'cpu' でも GPU リストでもありません: 0,1 のような GPU 番号か、GPU-xxxxxxxx-xxxx-... のような UUID をカンマ区切りで指定してください",
    "Rank %1's loss became %2 at step %3: training diverged [NAN_LOSS].":
        'ランク %1 の損失がステップ %3 で %2 になりました: 学習が発散しています [NAN_LOSS]。',
    '%1 of %2 lines of metrics.jsonl skipped (%3 over %4 KiB, %5 nested deeper than %6)':
        'metrics.jsonl の %2 行のうち %1 行をスキップしました (%4 KiB 超: %3 行、ネストが %6 段より深い: %5 行)',
    "'%1' already exists (a file, folder or link this run did not create: left by an earlier run, or another job is using it); DDP Desk leaves it alone - move it away, choose another --out or give --store file:PATH":
        "'%1' は既に存在します (この実行が作成したものではないファイル、フォルダーまたはリンクです: 以前の実行が残したものか、別のジョブが使用中です)。DDP Desk は手を付けません。移動するか、別の --out を選ぶか、--store file:PATH を指定してください",
    "cannot create the FileStore file '%1': %2":
        "FileStore ファイル '%1' を作成できません: %2",
    "%1 is in the way of DDP Desk's instrumentation module (%2); move it, or run with --no-instrument":
        '%1 が DDP Desk の計測モジュール (%2) の置き場所をふさいでいます。移動するか、--no-instrument を付けて実行してください',
    'cannot write %1: %2':
        '%1 に書き込めません: %2',
    "%1 is in the way of DDP Desk's folder for the ranks' progress and stacks; move it":
        '%1 が、ランクの進捗とスタックを置く DDP Desk のフォルダーの置き場所をふさいでいます。移動してください',
    "node %1 of a %2-node run needs node 0's run secret: give %3 (node 0's launcher prints the command for the other nodes)":
        '%2 ノードの実行のノード %1 には、ノード 0 の実行シークレットが必要です: %3 を指定してください (ノード 0 のランチャーが他のノード用のコマンドを表示します)',
    "warning: multi-node run: the store %1 is unauthenticated and reachable from the network (%2); anyone who reaches it can read what the ranks write there. Allow its port and Gloo's ports only from the other nodes (README, Security model).":
        '警告: 複数ノードの実行: ストア %1 は認証がなく、ネットワークから到達できます (%2)。到達できる人は誰でも、ランクがそこに書き込む内容を読めます。そのポートと Gloo のポートは他のノードからの接続だけに許可してください (README の Security model を参照)。',
    'note: multi-node run: the store %1 is unauthenticated, and on loopback (%2): only processes on this machine reach it, so every node of this run must run here too.':
        '注意: 複数ノードの実行: ストア %1 は認証がなく、ループバック上にあります (%2)。到達できるのはこのマシン上のプロセスだけなので、この実行のすべてのノードもこのマシンで動かす必要があります。',
    'other nodes join with (N = 1..%1; or put the secret in a file only you can read and give %2 FILE):\n  %3':
        '他のノードは次のコマンドで参加します (N = 1..%1。または、シークレットを自分だけが読めるファイルに書いて %2 FILE を指定):\n  %3',
    "the script's store is hosted by DDP Desk on 127.0.0.1:%1 (loopback only)":
        'スクリプトのストアは DDP Desk が 127.0.0.1:%1 でホストしています (ループバックのみ)',
    'cannot restart: %1':
        '再起動できません: %1',
    "cannot host the script's store on 127.0.0.1:%1: %2":
        'スクリプトのストアを 127.0.0.1:%1 でホストできません: %2',
    'no progress for %1 s':
        '%1 秒間進捗なし',
    "stacks: only script ranks started with DDP Desk's instrumentation (not --no-instrument) show their Python stacks":
        'スタック: Python スタックを表示できるのは、DDP Desk の計測付きで (--no-instrument なしで) 起動したスクリプトのランクだけです',
    'stacks: no rank can be asked yet (a rank announces itself once its interpreter has started)':
        'スタック: まだ要求できるランクがありません (ランクはインタープリターの起動後に名乗り出ます)',
    'stacks: rank %1 (pid %2) wrote none within %3 ms':
        'スタック: ランク %1 (pid %2) は %3 ms 以内に何も書き出しませんでした',
    'stacks of rank %1 (%2):\n%3':
        'ランク %1 のスタック (%2):\n%3',
    "'%1' is a link; the sweep keeps each size's run in a plain folder of its own and never writes through a link: move it away or choose another --out":
        "'%1' はリンクです。スイープは各サイズの実行をそれぞれ専用の通常フォルダーに保存し、リンク越しには書き込みません: 移動するか、別の --out を選んでください",
    'The diagnosis stopped at its deadline of %1 s while %2; the other findings are what it learned until then.':
        '診断は期限の %1 秒に達したため、%2 の途中で止まりました。他の所見はそれまでに分かったことです。',
    'Look at what was slow (%2), or run the doctor again with a longer deadline (ddpdesk-cli doctor --deadline SEC).':
        '時間のかかった処理 (%2) を確認するか、より長い期限で診断をやり直してください (ddpdesk-cli doctor --deadline SEC)。',
    "The store on port %1 listens on %2: anyone who can reach this machine can join as a rank, read the store's keys or change them, and so stall or take over the run.":
        'ポート %1 のストアは %2 で待ち受けています: このマシンに到達できる誰もがランクとして参加し、ストアのキーを読んだり書き換えたりして、実行を止めたり乗っ取ったりできます。',
    "Allow port %1 in the firewall only from the training nodes. Single-node runs need no network: use a FileStore (it never listens), or a loopback store (tcp://127.0.0.1:%1) with a LibTorch that hosts it on loopback only (2.3 or newer, not on Windows); PyTorch 1.x's TCPStore listens on every interface whatever host it is given.":
        'ファイアウォールでポート %1 を学習ノードからの接続だけに許可してください。単一ノードの実行にネットワークは要りません: FileStore (待ち受けをしません) を使うか、ループバックだけで待ち受けられる LibTorch (2.3 以降、Windows 以外) でループバックのストア (tcp://127.0.0.1:%1) を使ってください。PyTorch 1.x の TCPStore は、指定したホストにかかわらずすべてのインターフェースで待ち受けます。',
    "The TCPStore at %1 announced %2 bytes for key '%3'; the doctor reads at most %4 bytes per value and stopped reading it. Rank records are small: something other than the job writes to this store. Not all ranks probed.":
        "%1 の TCPStore はキー '%3' の値を %2 バイトと示しました。診断が読む値は最大 %4 バイトなので、読み取りをやめました。ランクの記録は小さいため、ジョブ以外の何かがこのストアに書き込んでいます。すべてのランクは調べていません。",
    'Check which program uses this store and port; give the job a store of its own.':
        'このストアとポートを使っているプログラムを確認し、ジョブには専用のストアを使ってください。',
    'The store path %1 does not answer: looking it up took longer than %2 ms, as on a network share whose server is down or unreachable. Ranks would hang on it.':
        'ストアのパス %1 が応答しません: 確認に %2 ms 以上かかりました。サーバーが止まっているか到達できないネットワーク共有のようです。ランクはここで止まってしまいます。',
    'Check the share (its server, the network, the mount); or use a store path on a disk that answers.':
        '共有 (サーバー、ネットワーク、マウント) を確認するか、応答するディスク上のストアパスを使ってください。',
    '%1, world size %2: step %3, %4 samples/s, mean loss %5, %6 elapsed':
        '%1、ワールドサイズ %2: ステップ %3、%4 サンプル/秒、平均損失 %5、経過 %6',
    'Show stac&ks':
        'スタックを表示(&K)',
    'Where does it hang? Every script rank writes the Python stacks of all its threads into the log; every ddpdesk-worker rank writes what it waits in (collective, bucket, for how long)':
        'どこで止まっているか? スクリプトの各ランクは全スレッドの Python スタックをログに書き出し、ddpdesk-worker の各ランクは何を待っているか (集団通信、バケット、待機時間) を書き出します',
    'asked from the Run page':
        '実行ページから要求',
    '<b>The run completed, but rank %1 needs a look.</b> %2':
        '<b>実行は完了しましたが、ランク %1 を確認してください。</b> %2',
    'Seen: %1':
        '検出: %1',
    'Run secret:':
        '実行シークレット:',
    "node 0's run secret (node 0's log shows it)":
        'ノード 0 の実行シークレット (ノード 0 のログに表示されます)',
    'Node 0 makes a secret for each multi-node run and shows the command for the other nodes in its log. Ranks that cannot prove they know it are refused.':
        'ノード 0 は複数ノードの実行ごとにシークレットを作り、他のノード用のコマンドをログに表示します。それを知っていると証明できないランクは拒否されます。',
    'Working folder:':
        '作業フォルダー:',
    "the script's folder":
        'スクリプトのフォルダー',
    "Where the script's ranks run, as torchrun runs them where it was started: files the script opens by relative path are read and written here.":
        'スクリプトのランクが実行されるフォルダーです (torchrun が起動した場所でランクを実行するのと同じです)。スクリプトが相対パスで開くファイルはここで読み書きされます。',
}

# Mixed precision, TensorBoard, comparing a setting in a sweep
JA.update({
    'Precision:':
        '精度:',
    'fp32':
        'fp32',
    'bf16 mixed precision':
        'bf16 混合精度',
    'fp16 mixed precision (CUDA only)':
        'fp16 混合精度 (CUDA のみ)',
    'Autocast for the forward pass and the loss, as torch.autocast does; weights and optimizer state stay fp32. fp16 needs a GPU and adds dynamic loss scaling; bf16 also runs on the CPU.':
        'torch.autocast と同じく、順伝播と損失を autocast で計算します。重みとオプティマイザーの状態は fp32 のままです。fp16 は GPU が必要で、動的な損失スケーリングを行います。bf16 は CPU でも動きます。',
    'Write TensorBoard files':
        'TensorBoard ファイルを書き出す',
    "Scalars for TensorBoard in the run folder's tensorboard/ subfolder; point TensorBoard at the runs folder to compare runs.":
        '実行フォルダーの tensorboard/ サブフォルダーに TensorBoard 用のスカラーを書き出します。実行結果フォルダーを TensorBoard に指定すると実行どうしを比較できます。',
    'Also compare:':
        'あわせて比較:',
    'nothing else':
        'なし',
    'precision: fp32 vs bf16':
        '精度: fp32 と bf16',
    'gradient compression: none vs fp16 vs bf16':
        '勾配圧縮: なし・fp16・bf16',
    'accumulate steps: 1 vs 4':
        '勾配累積ステップ: 1 と 4',
    'Runs every size once per value of this setting, so its effect on throughput, loss and gradient bytes shows side by side.':
        '各サイズをこの設定の値ごとに 1 回ずつ実行し、スループット、損失、勾配バイト数への影響を並べて表示します。',
    'Setting':
        '設定',
    'Running size %1 of %2 (%3 workers, %4)...':
        'サイズ %1/%2 を実行中 (ワーカー %3、%4)...',
    'measured, %1':
        '実測、%1',
    'fp16 needs GPUs (CUDA autocast with loss scaling); on CPU workers use bf16':
        'fp16 には GPU が必要です (損失スケーリング付きの CUDA autocast)。CPU ワーカーでは bf16 を使ってください',
    "--compare: '%1' is not SETTING=VALUE,VALUE; use e.g. precision=fp32,bf16 or grad-compression=none,fp16":
        "--compare: '%1' は 設定=値,値 の形ではありません。例: precision=fp32,bf16 や grad-compression=none,fp16",
    '%1 is a link or a file, not a folder: no TensorBoard files are written (move it away, or run with --no-tensorboard)':
        '%1 はフォルダーではなくリンクかファイルです: TensorBoard ファイルは書き出しません (移動するか、--no-tensorboard を付けて実行してください)',
    'cannot create %1: no TensorBoard files are written':
        '%1 を作成できません: TensorBoard ファイルは書き出しません',
    'cannot create %1: %2':
        '%1 を作成できません: %2',
    'no free event file name in %1':
        '%1 に空いているイベントファイル名がありません',
    'TensorBoard: %1':
        'TensorBoard: %1',
    "TensorBoard: %1 already holds event files of an earlier run in this folder; TensorBoard shows them as one run with this one's":
        'TensorBoard: %1 にはこのフォルダーでの以前の実行のイベントファイルがあります。TensorBoard はそれらをこの実行と 1 つの実行として表示します',
    "--compare: '%1' is given twice; each value runs once":
        "--compare: '%1' が 2 回指定されています。各値は 1 回だけ実行します",
    "%1: a script run does not take the worker's training settings (only threads); compare them on a built-in workload":
        '%1: スクリプトの実行にはワーカーの学習設定は渡されません (threads を除く)。組み込みワークロードで比較してください',
})


# A rank's way to its first step (RunModel::startupText)
JA.update({
    'running after %1 s':
        '%1 秒後に起動',
    'ready to train at %1 s':
        '%1 秒で学習準備完了',
    '(data and model: %1 s beside the rendezvous)':
        '(データとモデル: ランデブーと並行して %1 秒)',
    'first step at %1 s':
        '%1 秒で最初のステップ',
})


# Who holds the run up, stragglers, numbers a short run shows (collective_watch, straggler_watch, RunModel)
JA.update({
    'store server [%1]: %2':
        'ストアサーバー [%1]: %2',
    'The run ended without reporting one training step: nothing was trained.':
        '学習ステップが 1 回も報告されないまま実行が終わりました: 何も学習されていません。',
    "Check that the training loop ran (an empty data set or loader, 0 epochs, a loop only some ranks enter) and that it calls optimizer.step(); with --no-instrument, steps are read from the script's loss lines only (--loss-regex).":
        '学習ループが実行されたか (空のデータセットやローダー、0 エポック、一部のランクだけが入るループ)、optimizer.step() を呼んでいるかを確認してください。--no-instrument の場合、ステップはスクリプトの損失の行 (--loss-regex) からのみ読み取ります。',
    '(rank %1 printed nothing)':
        '(ランク %1 は何も出力していません)',
    'no training step was reported':
        '学習ステップが報告されませんでした',
    'the ranks did not report how many samples they trained on':
        'ランクが学習したサンプル数を報告しませんでした',
    'each rank reported one step; a rate needs two':
        '各ランクが報告したステップは 1 回だけです。速度の計算には 2 回必要です',
    'no rank here is behind another (rank(s) %1 at the same point): they wait for a rank elsewhere or for the store':
        'ここでは他より遅れているランクはありません (ランク %1 は同じ地点): 別の場所のランクかストアを待っています',
    'rank %1':
        'ランク %1',
    'ranks %1':
        'ランク %1',
    '%1 behind':
        '%1 が遅れています',
    '%1 has not entered %2 that %3 entered %4 s ago':
        '%3 が %4 秒前に入った %2 に %1 がまだ入っていません',
    '%1 have not entered %2 that %3 entered %4 s ago':
        '%3 が %4 秒前に入った %2 に %1 がまだ入っていません',
    'rank %1 is at %2':
        'ランク %1 は %2 にいます',
    'Everyone waits for %1: look at what it does there (slow data loading, a sleep or a lock, a branch only some ranks take that skips a collective, a device that hangs).':
        '全員が %1 を待っています: そこで何をしているかを確認してください (遅いデータ読み込み、sleep やロック、一部のランクだけが通って集団通信を飛ばす分岐、応答しないデバイス)。',
    '%1 in different collectives':
        '%1 が異なる集団通信にいます',
    'rank %1 in %2':
        'ランク %1 は %2',
    'the ranks wait in different collectives for %1 s: %2; their code paths diverged and none of them can finish':
        'ランクは異なる集団通信で %1 秒待っています: %2。コードの経路が分かれたため、どのランクも終われません',
    'Make every rank run the same collectives in the same order with the same shapes: look for a branch only some ranks take around the lines named (if rank == 0: ...), such as rank 0 alone calling the DDP model or a collective.':
        'すべてのランクが同じ集団通信を同じ順序・同じ形状で実行するようにしてください: 示した行の周りで一部のランクだけが通る分岐 (if rank == 0: ...) を探してください。たとえばランク 0 だけが DDP モデルや集団通信を呼んでいる場合です。',
    'every rank of this run (all on this machine) has waited in %1 for %2 s and none of them is behind: they may be in collectives that do not match (a branch only some ranks take), or the transport between them hangs':
        'この実行のすべてのランク (すべてこのマシン上) が %1 で %2 秒待っており、遅れているランクはありません: 一致しない集団通信にいる (一部のランクだけが通る分岐) か、ランク間の通信が止まっています',
    'Show stacks to see where each rank is: look for a rank-dependent branch around a collective or a DDP forward; TORCH_DISTRIBUTED_DEBUG=DETAIL names the first difference.':
        'スタックを表示して各ランクの位置を確認してください: 集団通信や DDP の forward の周りにあるランクごとの分岐を探してください。TORCH_DISTRIBUTED_DEBUG=DETAIL で最初の違いが分かります。',
    'every rank here has waited in %1 for %2 s and none of them is behind: a rank elsewhere (on another node) has not entered it, or the network does not carry the data':
        'ここのすべてのランクが %1 で %2 秒待っており、遅れているランクはありません: 別の場所 (別のノード) のランクがまだ入っていないか、ネットワークがデータを運んでいません',
    "Check that every node's ranks are running (Diagnose reads the store), and that GLOO_SOCKET_IFNAME names a link all nodes share.":
        'すべてのノードのランクが動いているか (診断はストアを読みます)、GLOO_SOCKET_IFNAME がすべてのノードで共通の回線を指しているかを確認してください。',
    'hold-up [%1]: %2':
        '停滞 [%1]: %2',
    'data loading (its time outside forward and backward)':
        'データ読み込み (順伝播と逆伝播以外の時間)',
    'compute (its step less the time it waited for the others)':
        '計算 (ステップ時間から他のランクを待った時間を引いたもの)',
    "rank %1's own work per step has taken %2x the fastest rank's (rank %3) for %4 s: %5 takes %6 ms a step against %7 ms; the other ranks wait for it in the gradient exchange":
        'ランク %1 の 1 ステップあたりの自身の処理時間が、最も速いランク (ランク %3) の %2 倍の状態が %4 秒続いています: %5 が 1 ステップ %6 ms (最速は %7 ms)。他のランクは勾配交換でこのランクを待っています',
    'CPU %1 %':
        'CPU %1 %',
    '%1 threads':
        'スレッド %1',
    'GPU %1 at %2 % utilization':
        'GPU %1 の使用率 %2 %',
    '; its process: %1':
        '。プロセス: %1',
    "Give rank %1's input pipeline more room (DataLoader num_workers, pin_memory, data on a local disk) or look for what else its process does between steps.":
        'ランク %1 の入力パイプラインに余裕を持たせるか (DataLoader の num_workers、pin_memory、データをローカルディスクに置く)、ステップの合間にそのプロセスが何をしているかを確認してください。',
    'Look at what runs beside rank %1: another process on its cores or its GPU, more threads than cores (threads x ranks), a slower or hotter GPU, a lower clock.':
        'ランク %1 の横で何が動いているかを確認してください: 同じコアや GPU 上の別のプロセス、コア数を超えるスレッド (スレッド数 x ランク数)、遅いまたは高温の GPU、低いクロック。',
    'straggler [%1]: %2':
        '遅いランク [%1]: %2',
    "Rank 0 is counted without keys of its own: it hosts the TCPStore and waits in the store's constructor until every rank has connected.":
        'ランク 0 は自身のキーなしで数えられています: TCPStore をホストしており、すべてのランクが接続するまでストアのコンストラクターで待っています。',
    'n/a':
        'n/a',
    '<b>One rank is slower than the others.</b>':
        '<b>1 つのランクが他より遅れています。</b>',
    '<b>The run is held up.</b>':
        '<b>実行が停滞しています。</b>',
    'Own work':
        '自身の処理',
    'Collective #':
        '集団通信 #',
    "Own work per step (step time less the time it waited for the others): %1 ms, %2x the fastest rank's, %3x its own best":
        '1 ステップあたりの自身の処理時間 (ステップ時間から他のランクを待った時間を引いたもの): %1 ms、最速のランクの %2 倍、自身の最良値の %3 倍',
    'Not measured yet: needs two ranks or more reporting their step and comm wait times':
        'まだ測定できません: ステップ時間と通信待ち時間を報告するランクが 2 つ以上必要です',
    '#%1 (waiting)':
        '#%1 (待機中)',
})


# Sentences the doctor appends to a finding (Finding::notes)
JA.update({
    'Not all ranks probed: only ranks %1 were looked up one by one.':
        'すべてのランクを調べたわけではありません: 1 つずつ確認したのはランク %1 だけです。',
})


# Settings menu: workers kept ready for the next Start (launch/warm_workers.h)
JA.update({
    'Keep &workers ready':
        'ワーカーを待機させておく(&W)',
    "Starts the next run's worker processes ahead, with LibTorch loaded, so Start begins at once; each waiting "
    "worker holds some memory.":
        '次の実行のワーカープロセスを LibTorch を読み込んだ状態で先に起動しておき、開始をすぐに始められるようにします。'
        '待機中のワーカーはそれぞれメモリを使います。',
})


# What DDP Desk writes and where (protocol/output_mark.h, launch/run_folder.h, launch/secret_file.h)
JA.update({
    "'%1' is already there and DDP Desk did not write it (%2 in that folder does not list it); DDP Desk never "
    "replaces a file of yours: move it away or choose another --out":
        "'%1' は既に存在し、DDP Desk が書いたものではありません (そのフォルダーの %2 に記載がありません)。"
        "DDP Desk はあなたのファイルを置き換えません: 別の場所へ移すか、別の --out を指定してください",
    "cannot create folder '%1' ('%2' is not a folder)":
        "フォルダー '%1' を作成できません ('%2' はフォルダーではありません)",
    "'%1' is not a folder": "'%1' はフォルダーではありません",
    "'%1' is already there and DDP Desk did not write it": "'%1' は既に存在し、DDP Desk が書いたものではありません",
    "cannot create '%1': %2": "'%1' を作成できません: %2",
    "warning: the run secret could not be saved for the other nodes (%1); start node 0 with %2 FILE and give the "
    "other nodes the same file":
        "警告: 他のノード用に実行シークレットを保存できませんでした (%1)。ノード 0 を %2 FILE で起動し、"
        "他のノードにも同じファイルを渡してください",
    "other nodes join with (N = 1..%1; first copy %2 to each node, readable only by you there too: chmod 600):\n  %3":
        "他のノードは次のコマンドで参加します (N = 1..%1。先に %2 を各ノードへコピーし、そこでもあなただけが"
        "読めるようにしてください: chmod 600):\n  %3",
    "node 0's run secret (in the run-secret file node 0's log names)":
        "ノード 0 の実行シークレット (ノード 0 のログが示す run-secret ファイルの中身)",
    "Node 0 makes a secret for each multi-node run, saves it in a file only you can read and shows the command "
    "for the other nodes in its log. Ranks that cannot prove they know it are refused.":
        "ノード 0 は複数ノードの実行ごとにシークレットを作り、あなただけが読めるファイルに保存して、"
        "他のノード用のコマンドをログに表示します。シークレットを知っていることを証明できないランクは拒否されます。",
    "store server [%1]: %2": "ストアサーバー [%1]: %2",
    "must be at most %1: %2 (got %3)": "%1 以下を指定してください: %2 (指定値 %3)",
    "%1 does not split evenly over %2 rank(s) x %3 micro-batch(es); use a multiple of %4":
        "%1 は %2 ランク x %3 マイクロバッチで割り切れません。%4 の倍数を指定してください",
    "n/a": "計測なし",
    'every rank here waits at least %1 of its step for the gradient exchange: the exchange, not the computation, sets the pace':
        'ここのすべてのランクがステップの少なくとも %1 を勾配交換の待ちに費やしています: 計算ではなく交換が速度を決めています',
    ' (%1 of gradients a step; %2 per second while waiting)':
        ' (1 ステップあたり勾配 %1、待ち時間中の転送速度は毎秒 %2)',
    'Exchange less often or less: a larger batch per rank or --accumulate, --grad-compression fp16, a faster link between the nodes (GLOO_SOCKET_IFNAME / --iface naming it), or fewer ranks.':
        '交換の回数か量を減らしてください: ランクあたりのバッチを大きくする、--accumulate、--grad-compression fp16、ノード間の速いリンク (GLOO_SOCKET_IFNAME / --iface で指定)、またはランク数を減らす。',
    "rank %1 spends %2 of its step outside forward and backward (%3 ms of %4 ms): loading data, or the script's own work between steps":
        'ランク %1 はステップの %2 を forward と backward の外で費やしています (%4 ms 中 %3 ms): データの読み込みか、ステップ間のスクリプト自身の処理です',
    'Feed the ranks faster: DataLoader num_workers and pin_memory, data on a local disk, work moved out of the training loop.':
        'ランクへのデータ供給を速くしてください: DataLoader の num_workers と pin_memory、データをローカルディスクに置く、処理を学習ループの外へ移す。',
    '%1 ranks x %2 threads = %3 threads on %4 cores: the ranks take the cores from each other':
        '%1 ランク x %2 スレッド = %4 コアに %3 スレッド: ランク同士がコアを奪い合っています',
    'Give each rank at most %1 thread(s) (--threads, or OMP_NUM_THREADS for a script), or run fewer ranks on this machine.':
        '各ランクのスレッドを %1 以下にする (--threads、スクリプトでは OMP_NUM_THREADS) か、このマシンで動かすランクを減らしてください。',
    'ranks %1 share GPU %2: they take turns on it':
        'ランク %1 が GPU %2 を共有しています: 交代で使っています',
    'One rank per GPU: --devices with each GPU once, and --nproc no larger than the GPU count.':
        'GPU 1 基につき 1 ランクにしてください: --devices に各 GPU を一度ずつ指定し、--nproc は GPU 数以下にします。',
    "rank %1's own work takes %2x the fastest rank's: every step waits for it":
        'ランク %1 自身の処理に最速のランクの %2 倍かかっています: 毎ステップがこのランクを待っています',
    'See the STRAGGLER warning of the run for what is slow on rank %1 (compute or data loading).':
        'ランク %1 で何が遅いか (計算かデータ読み込みか) は、実行中の STRAGGLER 警告を見てください。',
    'speed not reported':
        '速度不明',
    '%1 Gbit/s':
        '%1 Gbit/s',
    '%1 Mbit/s':
        '%1 Mbit/s',
    'loopback':
        'ループバック',
    'wireless':
        '無線',
    'wired':
        '有線',
    'loopback reaches no other machine':
        'ループバックは他のマシンに届きません',
    'every rank here waits at least %1 of its step for the exchange, and %2 adds a hop and often a slower path':
        'ここのすべてのランクがステップの少なくとも %1 を交換の待ちに費やしており、%2 は経由地を 1 つ増やし、多くの場合遅い経路になります',
    'every rank here waits at least %1 of its step for the exchange over the slower link':
        'ここのすべてのランクが、遅いリンク越しの交換でステップの少なくとも %1 を待っています',
    "Gloo's traffic between the nodes goes through %1 (%2): %3":
        'ノード間の Gloo の通信は %1 を通っています (%2): %3',
    '; %1 is up here too':
        '。このマシンでは %1 も有効です',
    'Name the interface the nodes reach each other through: --iface %1 (GLOO_SOCKET_IFNAME=%1 for a script, torchrun or mpirun), on every node with its own interface name.':
        'ノード同士が通信できるインターフェースを指定してください: --iface %1 (スクリプト、torchrun、mpirun では GLOO_SOCKET_IFNAME=%1)。各ノードでそのノードのインターフェース名を指定します。',
    'Name the interface the nodes reach each other through: --iface NAME (GLOO_SOCKET_IFNAME), on every node.':
        'ノード同士が通信できるインターフェースを指定してください: すべてのノードで --iface 名前 (GLOO_SOCKET_IFNAME)。',
    "the host name '%1' resolves to %2":
        "ホスト名 '%1' は %2 に解決されます",
    '%1 °C':
        '%1 °C',
    'SM clock %1 MHz against %2 MHz on GPU %3 of the fastest rank':
        'SM クロック %1 MHz (最速のランクの GPU %3 は %2 MHz)',
    'SM clock %1 MHz':
        'SM クロック %1 MHz',
    '%n other process(es) on its GPU (pid %1)':
        'その GPU 上に他のプロセスが %n 個 (pid %1)',
    'stopped from node 0: %1':
        'ノード 0 から停止されました: %1',
    'node 0 asks: %1':
        'ノード 0 からの要求: %1',
    'node %1: %2':
        'ノード %1: %2',
    '%1: its launcher is connected; its ranks show here':
        '%1: ランチャーが接続しました。そのランクはここに表示されます',
    '%1: no contact for %2 s':
        '%1: %2 秒間連絡がありません',
    'node %1 (%2)':
        'ノード %1 (%2)',
    "node link: off with a FileStore; each node shows its own ranks (use a tcp:// store to see every node's ranks on node 0)":
        'ノードリンク: FileStore では使えません。各ノードは自分のランクだけを表示します (ノード 0 ですべてのノードのランクを見るには tcp:// ストアを使ってください)',
    'node link: off, the run has no usable secret (%1)':
        'ノードリンク: 使えるシークレットがないため無効です (%1)',
    "node link: off, the store's host %1 is not an address of this machine":
        'ノードリンク: ストアのホスト %1 はこのマシンのアドレスではないため無効です',
    'node link: cannot listen on %1:%2 (%3); each node shows its own ranks':
        'ノードリンク: %1:%2 で待ち受けできません (%3)。各ノードは自分のランクだけを表示します',
    "node link: listening on %1:%2 for the other nodes' launchers (multi-node run; only those that prove the run's secret are let in)":
        'ノードリンク: 他のノードのランチャーを %1:%2 で待ち受けています (複数ノードの実行。実行のシークレットを証明したものだけを受け入れます)',
    'node link: %1 event(s) of other nodes dropped: this launcher fell behind':
        'ノードリンク: 他のノードのイベントを %1 件破棄しました: このランチャーの処理が追いついていません',
    'node link: %1':
        'ノードリンク: %1',
    'node link: refused %1: %2':
        'ノードリンク: %1 を拒否しました: %2',
    'Node':
        'ノード',
    '%1 lost contact first (its launcher or machine went away); then %2':
        '%1 との連絡が先に途絶えました (そのランチャーかマシンがなくなりました)。その後 %2',
    '%1: %2':
        '%1: %2',
})


# Opening a run folder kept anywhere, or a sweep's sizes, in History (File > Open run..., `ddpdesk RUN_DIR`)
JA.update({
    'Open &run...':
        '実行結果を開く(&R)...',
    'Open run folder':
        '実行結果のフォルダーを開く',
    "Shows a run folder kept anywhere, or a sweep's sizes, on the History page":
        'どこに置いた実行フォルダーでも、スイープの各サイズでも、履歴ページに表示します',
    'Cannot open this folder in History: %1':
        'このフォルダーは履歴で開けません: %1',
    "'%1' is not a folder":
        "'%1' はフォルダーではありません",
    "'%1' is not a run folder: it has no summary.json (every run DDP Desk records writes one), and no folder directly inside it has one (as a sweep's n1, n2, ... do)":
        "'%1' は実行フォルダーではありません: summary.json がなく (DDP Desk が記録する実行はすべて書き込みます)、すぐ下のフォルダーにもありません (スイープの n1、n2、... にはあります)",
})

def main():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ddpdesk_ja.ts")
    tree = ET.parse(path)
    missing = []
    for msg in tree.getroot().iter("message"):
        src = msg.find("source").text or ""
        tr = msg.find("translation")
        ja = JA.get(src)
        if ja is None:
            missing.append(src)
            continue
        for child in list(tr):
            tr.remove(child)
        tr.attrib.pop("type", None)
        if msg.get("numerus") == "yes":
            tr.text = None
            form = ET.SubElement(tr, "numerusform")
            form.text = ja
        else:
            tr.text = ja
    tree.write(path, encoding="utf-8", xml_declaration=True)
    with open(path, "r", encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace("<?xml version='1.0' encoding='utf-8'?>", '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>'))
    for m in missing:
        print("untranslated:", repr(m), file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
