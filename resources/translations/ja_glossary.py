#!/usr/bin/python3
# Fills resources/translations/ddpdesk_ja.ts from this glossary after `lupdate` (target ddpdesk_ui_lupdate) added
# new source texts:  /usr/bin/python3 resources/translations/ja_glossary.py
# Untranslated texts stay "unfinished" so Qt Linguist shows them; Japanese has a single numerus form.
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
    "The run finished.": "実行が完了しました。", "The run failed or was stopped.": "実行は失敗したか、停止されました。",
    "A rank stopped making progress; see the Doctor page.": "進まなくなったランクがあります。診断ページを見てください。",
    "Running": "実行中", "Idle": "待機中", "Stopping every worker...": "すべてのワーカーを停止中...",
    "The run was not started: the doctor found a problem.": "実行は開始されませんでした: 診断で問題が見つかりました。",
    "Load profile": "プロファイルを読み込む", "Save profile": "プロファイルを保存", "DDP Desk profiles (*.json)": "DDP Desk プロファイル (*.json)",
    "Show in Run page": "実行ページで表示", "Cannot reopen run": "実行を開き直せません",
    "A run is in progress; reopen %1 when it has finished.": "実行中です。完了してから %1 を開き直してください。",
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
    "failed": "失敗", "stopped": "停止",
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
    "%1 (%2 ranks)": "%1 (%2 ランク)",
}


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
