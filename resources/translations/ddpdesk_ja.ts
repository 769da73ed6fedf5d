<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name>ddpdesk::launch::FailureDiagnosis</name>
    <message>
        <source>This PyTorch has no NCCL: NCCL exists only in Linux builds with CUDA, never on Windows or in CPU-only builds.</source>
        <translation>この PyTorch には NCCL がありません: NCCL は CUDA 付きの Linux 版にしかなく、Windows 版や CPU 専用版にはありません。</translation>
    </message>
    <message>
        <source>Use the gloo backend: init_process_group("gloo", ...). DDP Desk's own workers always use Gloo.</source>
        <translation>gloo バックエンドを使ってください: init_process_group("gloo", ...)。DDP Desk 自身のワーカーは常に Gloo を使います。</translation>
    </message>
    <message>
        <source>PyTorch's TCPStore was asked to use libuv, but this PyTorch was built without it (Windows builds of torch 2.4 and later, Debian's torch 2.6).</source>
        <translation>PyTorch の TCPStore に libuv の使用が求められましたが、この PyTorch は libuv なしでビルドされています (torch 2.4 以降の Windows 版、Debian の torch 2.6)。</translation>
    </message>
    <message>
        <source>Set USE_LIBUV=0 in the environment (DDP Desk sets it for script runs where the interpreter lacks libuv) or create the TCPStore with use_libuv=False. torchrun 2.x ignores USE_LIBUV=0: start the ranks with DDP Desk instead.</source>
        <translation>環境変数 USE_LIBUV=0 を設定するか (インタープリタに libuv がないスクリプト実行では DDP Desk が設定します)、TCPStore を use_libuv=False で作成してください。torchrun 2.x は USE_LIBUV=0 を無視するので、ランクは DDP Desk から起動してください。</translation>
    </message>
    <message>
        <source>Gloo could not create its network device: the transport it was asked for is not in this build. Windows torch 2.8 and 2.9 fail like this for every Gloo job (a known broken Gloo in those releases).</source>
        <translation>Gloo がネットワークデバイスを作成できませんでした: 要求されたトランスポートがこのビルドにありません。Windows の torch 2.8 と 2.9 ではすべての Gloo ジョブがこのように失敗します (これらのリリースの Gloo の既知の不具合)。</translation>
    </message>
    <message>
        <source>On Windows, pin the last working release (pip install torch==2.7.1) until a fixed one ships; elsewhere, unset GLOO_DEVICE_TRANSPORT.</source>
        <translation>Windows では修正版が出るまで動作する最後のリリースに固定してください (pip install torch==2.7.1)。それ以外では GLOO_DEVICE_TRANSPORT を解除してください。</translation>
    </message>
    <message>
        <source>Gloo could not turn this machine's hostname or network interface into a local address to listen on.</source>
        <translation>Gloo がこのマシンのホスト名またはネットワークインターフェースから待ち受け用のローカルアドレスを得られませんでした。</translation>
    </message>
    <message>
        <source>Set GLOO_SOCKET_IFNAME to the network interface to use (for example eth0), or make the hostname resolve to one of this machine's own addresses.</source>
        <translation>使用するネットワークインターフェースを GLOO_SOCKET_IFNAME に設定するか (例: eth0)、ホスト名がこのマシン自身のアドレスに解決されるようにしてください。</translation>
    </message>
    <message>
        <source>A GPU ran out of memory.</source>
        <translation>GPU のメモリが不足しました。</translation>
    </message>
    <message>
        <source>Lower the batch size per rank, make sure each rank uses its own GPU (torch.cuda.set_device(LOCAL_RANK)), or free the GPU from other processes; PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True helps against fragmentation.</source>
        <translation>ランクあたりのバッチサイズを下げる、各ランクが自分の GPU を使うようにする (torch.cuda.set_device(LOCAL_RANK))、または他のプロセスから GPU を空けてください。断片化には PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True が有効です。</translation>
    </message>
    <message>
        <source>A rank asked for a GPU that does not exist here (invalid device ordinal): more ranks per node than visible GPUs, or CUDA_VISIBLE_DEVICES hides some.</source>
        <translation>ランクがここに存在しない GPU を要求しました (invalid device ordinal): ノードあたりのランク数が見える GPU の数より多いか、CUDA_VISIBLE_DEVICES が一部を隠しています。</translation>
    </message>
    <message>
        <source>Run at most one rank per visible GPU and select it with LOCAL_RANK (torch.cuda.set_device), or run on CPU with the gloo backend.</source>
        <translation>見える GPU 1 つにつきランクは 1 つまでにし、LOCAL_RANK で選んでください (torch.cuda.set_device)。または gloo バックエンドで CPU で実行してください。</translation>
    </message>
    <message>
        <source>The script uses CUDA, but this PyTorch has no CUDA support, or no GPU or NVIDIA driver is visible.</source>
        <translation>スクリプトは CUDA を使いますが、この PyTorch は CUDA に対応していないか、GPU または NVIDIA ドライバーが見えません。</translation>
    </message>
    <message>
        <source>Install a CUDA build of PyTorch and the NVIDIA driver, or run on CPU: keep the model and tensors on "cpu" and use the gloo backend.</source>
        <translation>CUDA 版の PyTorch と NVIDIA ドライバーをインストールするか、CPU で実行してください: モデルとテンソルを "cpu" に置き、gloo バックエンドを使います。</translation>
    </message>
    <message>
        <source>DistributedDataParallel expected a gradient for every parameter, but some parameters did not take part in computing the loss.</source>
        <translation>DistributedDataParallel はすべてのパラメータに勾配があることを期待しましたが、一部のパラメータが損失の計算に使われませんでした。</translation>
    </message>
    <message>
        <source>Pass find_unused_parameters=True to DistributedDataParallel, or make every parameter take part in the loss (remove layers the forward pass does not use).</source>
        <translation>DistributedDataParallel に find_unused_parameters=True を渡すか、すべてのパラメータが損失に関わるようにしてください (forward で使わない層を取り除く)。</translation>
    </message>
    <message>
        <source>The ranks called different collectives, or the same one with different tensor shapes or in a different order (their sequence numbers differ): their code paths diverged.</source>
        <translation>ランクが異なる集団通信を呼んだか、同じ集団通信を異なるテンソル形状または異なる順序で呼びました (シーケンス番号が一致しません): ランクのコードの流れが分かれています。</translation>
    </message>
    <message>
        <source>Make every rank run the same collectives in the same order with the same shapes: watch rank-dependent branches and uneven last batches (DistributedSampler with drop_last=True). TORCH_DISTRIBUTED_DEBUG=DETAIL reports the first difference.</source>
        <translation>すべてのランクが同じ集団通信を同じ順序・同じ形状で実行するようにしてください: ランクによって分かれる分岐や不揃いな最後のバッチに注意します (DistributedSampler に drop_last=True)。TORCH_DISTRIBUTED_DEBUG=DETAIL で最初の違いが報告されます。</translation>
    </message>
    <message>
        <source>The loss became NaN or infinite: training diverged (or the data contains NaN).</source>
        <translation>損失が NaN または無限大になりました: 学習が発散しました (またはデータに NaN が含まれています)。</translation>
    </message>
    <message>
        <source>Lower the learning rate, check the input data for NaN and inf, clip gradients; torch.autograd.set_detect_anomaly(True) names the operation that produced it.</source>
        <translation>学習率を下げる、入力データの NaN と inf を確認する、勾配をクリップしてください。torch.autograd.set_detect_anomaly(True) で原因となった演算がわかります。</translation>
    </message>
    <message>
        <source>The rank's process was ended by C++'s std::terminate with no exception in flight: a C++ thread of PyTorch was destroyed while still running. Most often this happens while Python shuts down after the script's last line: PyTorch 1.13 and 2.6 do it now and then in scripts that register a Python DDP communication hook (reproduced without DDP Desk). If the rank's last step and its files are there, the training itself completed.</source>
        <translation>ランクのプロセスが、処理中の例外がないまま C++ の std::terminate で終了しました: PyTorch の C++ スレッドが実行中のまま破棄されました。多くはスクリプトの最後の行の後、Python の終了処理中に起こります: Python の DDP 通信フックを登録するスクリプトでは、PyTorch 1.13 と 2.6 がときどきこうなります (DDP Desk なしでも再現)。ランクの最後のステップとファイルが残っていれば、学習自体は完了しています。</translation>
    </message>
    <message>
        <source>End the script with dist.destroy_process_group() and, once everything is saved, flushed and closed (atexit handlers do not run), os._exit(0): it skips the interpreter shutdown in which PyTorch's threads abort. If it happens during training, TORCH_SHOW_CPP_STACKTRACES=1 shows which C++ code ended the process.</source>
        <translation>スクリプトの最後で dist.destroy_process_group() を呼び、すべてを保存・フラッシュして閉じてから (atexit ハンドラーは実行されません) os._exit(0) で終了してください: PyTorch のスレッドが異常終了するインタープリターの終了処理を省けます。学習中に起こる場合は、TORCH_SHOW_CPP_STACKTRACES=1 でプロセスを終了させた C++ コードがわかります。</translation>
    </message>
    <message>
        <source>The rendezvous port is already in use by another process (often another training job on the default port 29500).</source>
        <translation>ランデブーのポートは別のプロセスが使用中です (多くは既定のポート 29500 を使う別の学習ジョブ)。</translation>
    </message>
    <message>
        <source>Pick a free port (MASTER_PORT, or --store tcp://HOST:PORT); ddpdesk-cli doctor names the process that holds it.</source>
        <translation>空いているポートを選んでください (MASTER_PORT または --store tcp://HOST:PORT)。ddpdesk-cli doctor がポートを使っているプロセスを示します。</translation>
    </message>
    <message>
        <source>The address to listen on or connect to is not valid on this machine (for example 0.0.0.0 as the master address on Windows, or an IP address this machine does not have).</source>
        <translation>待ち受けまたは接続先のアドレスがこのマシンでは有効ではありません (例: Windows でマスターアドレスに 0.0.0.0、またはこのマシンが持たない IP アドレス)。</translation>
    </message>
    <message>
        <source>Use the master node's real address for MASTER_ADDR or the TCP store, and on the master an address of one of its own network interfaces.</source>
        <translation>MASTER_ADDR や TCP ストアにはマスターノードの実際のアドレスを使い、マスターでは自分のネットワークインターフェースのアドレスを使ってください。</translation>
    </message>
    <message>
        <source>The operating system refused the port: on Windows a port inside an excluded range (Hyper-V, WSL, Docker reserve them) or blocked by policy; elsewhere a privileged port below 1024.</source>
        <translation>オペレーティングシステムがポートを拒否しました: Windows では除外範囲内のポート (Hyper-V、WSL、Docker が予約) かポリシーによるブロック、それ以外では 1024 未満の特権ポートです。</translation>
    </message>
    <message>
        <source>Choose another port: outside the ranges that 'netsh interface ipv4 show excludedportrange protocol=tcp' lists on Windows, above 1024 elsewhere.</source>
        <translation>別のポートを選んでください: Windows では 'netsh interface ipv4 show excludedportrange protocol=tcp' が示す範囲の外、それ以外では 1024 より上です。</translation>
    </message>
    <message>
        <source>Not every rank arrived at the rendezvous in time: a rank did not start, failed before it, or cannot reach the store.</source>
        <translation>すべてのランクが時間内にランデブーに到着しませんでした: 起動しなかったランク、その前に失敗したランク、またはストアに到達できないランクがあります。</translation>
    </message>
    <message>
        <source>Check that every rank started (every node launched with the same world size and store), that the store address is reachable from every node and that no stale FileStore file is reused; ddpdesk-cli doctor checks these.</source>
        <translation>すべてのランクが起動したこと (すべてのノードが同じワールドサイズとストアで起動されたこと)、すべてのノードからストアのアドレスに到達できること、古い FileStore ファイルを再利用していないことを確認してください。ddpdesk-cli doctor がこれらを確認します。</translation>
    </message>
    <message>
        <source>A network operation timed out waiting for another rank: that rank died, hangs, or cannot be reached (a firewall).</source>
        <translation>別のランクを待つネットワーク操作がタイムアウトしました: そのランクが終了した、止まっている、または到達できません (ファイアウォール)。</translation>
    </message>
    <message>
        <source>Look at the rank that failed first. If none did, allow the program (not only one port) through the firewall on every node, and check that all ranks run the same number of steps.</source>
        <translation>最初に失敗したランクを確認してください。失敗したランクがなければ、すべてのノードのファイアウォールでプログラムを (1 つのポートだけでなく) 許可し、すべてのランクが同じステップ数を実行することを確認してください。</translation>
    </message>
    <message>
        <source>The connection to another rank was closed or reset: that rank died first (a crash, an out-of-memory kill, Ctrl-C).</source>
        <translation>別のランクとの接続が閉じられたかリセットされました: そのランクが先に終了しました (クラッシュ、メモリ不足による強制終了、Ctrl-C)。</translation>
    </message>
    <message>
        <source>Look at the output and exit status of the rank that failed first; this rank's error is only the consequence.</source>
        <translation>最初に失敗したランクの出力と終了状態を確認してください。このランクのエラーは結果にすぎません。</translation>
    </message>
    <message>
        <source>Rank %1 failed first: its output and exit status show the cause.</source>
        <translation>ランク %1 が最初に失敗しました: 原因はその出力と終了状態から分かります。</translation>
    </message>
    <message>
        <source>Rank %1 failed first (%2): its output and exit status show the cause.</source>
        <translation>ランク %1 が最初に失敗しました (%2): 原因はその出力と終了状態から分かります。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Why [%1]:&lt;/b&gt; %2</source>
        <translation>&lt;b&gt;原因 [%1]:&lt;/b&gt; %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Fix:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;対処方法:&lt;/b&gt; %1</translation>
    </message>
<message><source>The run completed, but its ranks ended with different parameters (their params_sha256 differ): DDP keeps every rank identical, so something on some rank changed the model outside the gradient exchange.</source><translation>実行は完了しましたが、ランクの最終パラメーターが一致しません (params_sha256 が異なります)。DDP はすべてのランクを同一に保つため、どこかのランクで勾配交換以外の経路でモデルが変更されています。</translation></message><message><source>Look for code that touches parameters on one rank only, a non-deterministic custom operation, or ranks on different LibTorch builds; train.equivalence-style runs with --grad-transport gloo narrow it down. Use rank 0's model.pt, which is the one saved.</source><translation>1 つのランクだけでパラメーターを変更するコード、非決定的なカスタム演算、LibTorch ビルドの異なるランクがないか確認してください。--grad-transport gloo で train.equivalence 形式の実行をすると原因を絞り込めます。保存されるのはランク 0 の model.pt です。</translation></message>    <message>
        <source>The ranks' Gloo libraries disagree on how a network address is written: the ranks run different PyTorch releases (1.x beside 2.x), or a ddpdesk-worker built against another LibTorch than the Python ranks use. The rank on the other side may fail with a bare std::bad_alloc.</source>
        <translation>ランクの Gloo ライブラリがネットワークアドレスの書式で食い違っています: ランクが異なる PyTorch リリース (1.x と 2.x など) で動いているか、Python のランクとは別の LibTorch でビルドされた ddpdesk-worker が混ざっています。相手側のランクは単なる std::bad_alloc で失敗することがあります。</translation>
    </message>
    <message>
        <source>Run every rank with the same PyTorch release: the same interpreter and torch version on every node, and a ddpdesk-worker built against that release's LibTorch (ddpdesk-worker --version names it).</source>
        <translation>すべてのランクを同じ PyTorch リリースで実行してください: すべてのノードで同じインタープリターと torch のバージョンを使い、ddpdesk-worker はそのリリースの LibTorch でビルドしてください (ddpdesk-worker --version で確認できます)。</translation>
    </message>
</context>
<context>
    <name>ddpdesk::launch::MetricsLog</name>
    <message>
        <source>cannot write '%1': %2</source>
        <translation>'%1' に書き込めません: %2</translation>
    </message>
</context>
<context>
    <name>ddpdesk::launch::RunConfig</name>
    <message>
        <source>does nothing for a --script run: the script trains as it is written (change it in the script, or pass it to the script after --)</source>
        <translation>--script の実行では何も変えません: スクリプトは書かれたとおりに学習します (スクリプトの中で変えるか、-- の後にスクリプトへ渡してください)</translation>
    </message>
    <message>
        <source>working folder '%1' not found</source>
        <translation>作業フォルダー '%1' が見つかりません</translation>
    </message>
    <message>
        <source>cannot create folder '%1' (check the path and permissions)</source>
        <translation>フォルダー '%1' を作成できません (パスと権限を確認してください)</translation>
    </message>
    <message>
        <source>folder '%1' is not writable: %2</source>
        <translation>フォルダー '%1' に書き込めません: %2</translation>
    </message>
    <message>
        <source>'%1' is not a file</source>
        <translation>'%1' はファイルではありません</translation>
    </message>
    <message>
        <source>'%1' is not an executable interpreter</source>
        <translation>'%1' は実行可能なインタープリターではありません</translation>
    </message>
    <message>
        <source>'%1' is not executable; give --python PATH to run it with an interpreter</source>
        <translation>'%1' は実行可能ではありません。インタープリターで実行するには --python PATH を指定してください</translation>
    </message>
    <message>
        <source>model file '%1' not found</source>
        <translation>モデルファイル '%1' が見つかりません</translation>
    </message>
    <message>
        <source>data folder '%1' not found</source>
        <translation>データフォルダー '%1' が見つかりません</translation>
    </message>
    <message>
        <source>FileStore file '%1' already exists (left by an earlier run, or another job is using it); delete it or choose another path</source>
        <translation>FileStore ファイル '%1' が既に存在します (以前の実行が残したものか、別のジョブが使用中です)。削除するか、別のパスを選んでください</translation>
    </message>
    <message>
        <source>not a valid regular expression: %1</source>
        <translation>正しい正規表現ではありません: %1</translation>
    </message>
    <message>
        <source>unknown workload '%1'; valid: %2</source>
        <translation>不明なワークロード '%1' です。有効な値: %2</translation>
    </message>
    <message>
        <source>the torchscript workload needs --model FILE</source>
        <translation>torchscript ワークロードには --model FILE が必要です</translation>
    </message>
    <message>
        <source>%1 workers is not valid; use 1..%2</source>
        <translation>ワーカー数 %1 は無効です。1..%2 を指定してください</translation>
    </message>
    <message>
        <source>'%1' is neither 'cpu' nor a GPU list like 0,1</source>
        <translation>'%1' は 'cpu' でも 0,1 のような GPU リストでもありません</translation>
    </message>
    <message>
        <source>--nproc %1 does not match the %2 GPU(s) in --devices %3 (one worker per GPU)</source>
        <translation>--nproc %1 が --devices %3 の GPU 数 %2 と一致しません (GPU 1 基につきワーカー 1 つ)</translation>
    </message>
    <message>
        <source>%1 nodes is not valid; use 1 or more</source>
        <translation>ノード数 %1 は無効です。1 以上を指定してください</translation>
    </message>
    <message>
        <source>node rank %1 is out of range: with --nnodes %2 valid node ranks are 0..%3 (its ranks would not be below world size %4)</source>
        <translation>ノードランク %1 は範囲外です: --nnodes %2 では有効なノードランクは 0..%3 です (そのランクがワールドサイズ %4 未満になりません)</translation>
    </message>
    <message>
        <source>'%1' has no host; use tcp://HOST:PORT</source>
        <translation>'%1' にホストがありません。tcp://HOST:PORT の形式で指定してください</translation>
    </message>
    <message>
        <source>port in '%1' must be 1..65535</source>
        <translation>'%1' のポートは 1..65535 でなければなりません</translation>
    </message>
    <message>
        <source>'file:' needs a path, e.g. file:C:/share/run1/store</source>
        <translation>'file:' にはパスが必要です (例: file:C:/share/run1/store)</translation>
    </message>
    <message>
        <source>'%1' is not a store; use file:PATH or tcp://HOST:PORT</source>
        <translation>'%1' はストアではありません。file:PATH または tcp://HOST:PORT を指定してください</translation>
    </message>
    <message>
        <source>with --nnodes %1 every node must reach the same store: give tcp://NODE0_ADDRESS:PORT or file:SHARED_FOLDER/store</source>
        <translation>--nnodes %1 ではすべてのノードが同じストアに到達できる必要があります: tcp://NODE0_ADDRESS:PORT または file:SHARED_FOLDER/store を指定してください</translation>
    </message>
    <message>
        <source>%1 is not valid; use 1 or more</source>
        <translation>%1 は無効です。1 以上を指定してください</translation>
    </message>
    <message>
        <source>give either --epochs or --steps, not both</source>
        <translation>--epochs と --steps はどちらか一方だけを指定してください</translation>
    </message>
    <message>
        <source>learning rate %1 is not valid; use a positive number</source>
        <translation>学習率 %1 は無効です。正の数を指定してください</translation>
    </message>
    <message>
        <source>%1 is not valid; use 0 (automatic) or more</source>
        <translation>%1 は無効です。0 (自動) 以上を指定してください</translation>
    </message>
    <message>
        <source>%1 is not valid; use a positive size in MiB</source>
        <translation>%1 は無効です。MiB 単位の正のサイズを指定してください</translation>
    </message>
    <message>
        <source>%1 is not valid; use 0 (off) or more steps</source>
        <translation>%1 は無効です。0 (オフ) 以上のステップ数を指定してください</translation>
    </message>
    <message>
        <source>%1 is not valid; use 0 or more</source>
        <translation>%1 は無効です。0 以上を指定してください</translation>
    </message>
    <message>
        <source>%1 s is not valid; use 1 or more seconds</source>
        <translation>%1 秒は無効です。1 秒以上を指定してください</translation>
    </message>
    <message>
        <source>%1 s is not valid; use 0 (off) or more seconds</source>
        <translation>%1 秒は無効です。0 (オフ) 以上の秒数を指定してください</translation>
    </message>
    <message>
        <source>an output folder is required (--out DIR)</source>
        <translation>出力フォルダーが必要です (--out DIR)</translation>
    </message>
    <message>
        <source>cannot write profile '%1': %2</source>
        <translation>プロファイル '%1' を書き込めません: %2</translation>
    </message>
    <message>
        <source>cannot read profile '%1': %2</source>
        <translation>プロファイル '%1' を読み込めません: %2</translation>
    </message>
    <message>
        <source>profile '%1' is not a JSON object: %2</source>
        <translation>プロファイル '%1' は JSON オブジェクトではありません: %2</translation>
    </message>
    <message>
        <source>'%1' is not valid; use auto, shm or gloo</source>
        <translation>'%1' は無効です。auto、shm、gloo のいずれかを指定してください</translation>
    </message>
<message><source>give either %1 or %2, not both</source><translation>%1 と %2 はどちらか一方だけを指定してください</translation></message><message><source>must be at least 1 (got %1)</source><translation>1 以上を指定してください (指定値 %1)</translation></message><message><source>must be 0 or more (got %1)</source><translation>0 以上を指定してください (指定値 %1)</translation></message><message><source>must be a positive number (got %1)</source><translation>正の数を指定してください (指定値 %1)</translation></message><message><source>must be at most %1: %2 (got %3)</source><translation>%1 以下を指定してください: %2 (指定値 %3)</translation></message><message><source>%1 does not split evenly over %2 rank(s) x %3 micro-batch(es); use a multiple of %4</source><translation>%1 は %2 ランク x %3 マイクロバッチで割り切れません。%4 の倍数を指定してください</translation></message><message><source>'%1' is not valid; use %2</source><translation>'%1' は無効です。%2 のいずれかを指定してください</translation></message><message><source>'%1' in brackets is not an IPv6 address</source><translation>角かっこ内の '%1' は IPv6 アドレスではありません</translation></message><message><source>'%1' is not an IPv4 address (each number is 0..255)</source><translation>'%1' は IPv4 アドレスではありません (各数値は 0..255)</translation></message><message><source>'%1' looks like an IPv6 address; write it in brackets: tcp://[ADDRESS]:PORT</source><translation>'%1' は IPv6 アドレスのようです。角かっこで囲んでください: tcp://[ADDRESS]:PORT</translation></message><message><source>'%1' is not a valid host name (letters, digits, '-' and '.' only, e.g. node0 or node0.cluster.local)</source><translation>'%1' は有効なホスト名ではありません (使えるのは英字、数字、'-'、'.' のみです。例: node0、node0.cluster.local)</translation></message><message><source>'%1' is neither 'cpu' nor a GPU list: use GPU indices like 0,1 or UUIDs like GPU-xxxxxxxx-xxxx-... separated by commas</source><translation>'%1' は 'cpu' でも GPU リストでもありません: 0,1 のような GPU 番号か、GPU-xxxxxxxx-xxxx-... のような UUID をカンマ区切りで指定してください</translation></message><message><source>fp16 needs GPUs (CUDA autocast with loss scaling); on CPU workers use bf16</source><translation>fp16 には GPU が必要です (損失スケーリング付きの CUDA autocast)。CPU ワーカーでは bf16 を使ってください</translation></message><message><source>cannot create folder '%1' ('%2' is not a folder)</source><translation>フォルダー '%1' を作成できません ('%2' はフォルダーではありません)</translation></message></context>
<context>
    <name>ddpdesk::launch::RunModel</name>
    <message>
        <source>checkpoint at step %1: %2</source>
        <translation>ステップ %1 でチェックポイント: %2</translation>
    </message>
    <message>
        <source>running after %1 s</source>
        <translation>%1 秒後に起動</translation>
    </message>
    <message>
        <source>ready to train at %1 s</source>
        <translation>%1 秒で学習準備完了</translation>
    </message>
    <message>
        <source>(data and model: %1 s beside the rendezvous)</source>
        <translation>(データとモデル: ランデブーと並行して %1 秒)</translation>
    </message>
    <message>
        <source>first step at %1 s</source>
        <translation>%1 秒で最初のステップ</translation>
    </message>
<message><source>Rank %1's loss became %2 at step %3: training diverged [NAN_LOSS].</source><translation>ランク %1 の損失がステップ %3 で %2 になりました: 学習が発散しています [NAN_LOSS]。</translation></message>
    <message>
        <source>store server [%1]: %2</source>
        <translation>ストアサーバー [%1]: %2</translation>
    </message>
    <message>
        <source>The run ended without reporting one training step: nothing was trained.</source>
        <translation>学習ステップが 1 回も報告されないまま実行が終わりました: 何も学習されていません。</translation>
    </message>
    <message>
        <source>Check that the training loop ran (an empty data set or loader, 0 epochs, a loop only some ranks enter) and that it calls optimizer.step(); with --no-instrument, steps are read from the script's loss lines only (--loss-regex).</source>
        <translation>学習ループが実行されたか (空のデータセットやローダー、0 エポック、一部のランクだけが入るループ)、optimizer.step() を呼んでいるかを確認してください。--no-instrument の場合、ステップはスクリプトの損失の行 (--loss-regex) からのみ読み取ります。</translation>
    </message>
    <message>
        <source>(rank %1 printed nothing)</source>
        <translation>(ランク %1 は何も出力していません)</translation>
    </message>
    <message>
        <source>no training step was reported</source>
        <translation>学習ステップが報告されませんでした</translation>
    </message>
    <message>
        <source>the ranks did not report how many samples they trained on</source>
        <translation>ランクが学習したサンプル数を報告しませんでした</translation>
    </message>
    <message>
        <source>each rank reported one step; a rate needs two</source>
        <translation>各ランクが報告したステップは 1 回だけです。速度の計算には 2 回必要です</translation>
    </message>
    <message>
        <source>no rank ran a forward of a model wrapped in DistributedDataParallel, where a script's samples are counted: each rank trains alone</source>
        <translation>スクリプトのサンプル数を数える DistributedDataParallel でラップされたモデルの forward を実行したランクがありません: 各ランクは単独で学習しています</translation>
    </message>
</context>
<context>
    <name>ddpdesk::launch::RunReplay</name>
    <message>
        <source>'%1' is not a folder</source>
        <translation>'%1' はフォルダーではありません</translation>
    </message>
    <message>
        <source>'%1' is not a run folder: it has no summary.json (every run DDP Desk records writes one), and no folder directly inside it has one (as a sweep's n1, n2, ... do)</source>
        <translation>'%1' は実行フォルダーではありません: summary.json がなく (DDP Desk が記録する実行はすべて書き込みます)、すぐ下のフォルダーにもありません (スイープの n1、n2、... にはあります)</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 を読み込めません: %2</translation>
    </message>
    <message>
        <source>%1 has no rank_start or hello event: not a ddpdesk run recording</source>
        <translation>%1 に rank_start イベントも hello イベントもありません: ddpdesk の実行記録ではありません</translation>
    </message>
    <message>
        <source>the recording has no summary.json</source>
        <translation>記録に summary.json がありません</translation>
    </message>
    <message>
        <source>%1 of %2 lines of metrics.jsonl skipped (%3 over %4 KiB, %5 nested deeper than %6)</source>
        <translation>metrics.jsonl の %2 行のうち %1 行をスキップしました (%4 KiB 超: %3 行、ネストが %6 段より深い: %5 行)</translation>
    </message>
</context>
<context>
    <name>ddpdesk::launch::RunStore</name>
    <message>
        <source>'%1' already exists (a file, folder or link this run did not create: left by an earlier run, or another job is using it); DDP Desk leaves it alone - move it away, choose another --out or give --store file:PATH</source>
        <translation>'%1' は既に存在します (この実行が作成したものではないファイル、フォルダーまたはリンクです: 以前の実行が残したものか、別のジョブが使用中です)。DDP Desk は手を付けません。移動するか、別の --out を選ぶか、--store file:PATH を指定してください</translation>
    </message>
    <message>
        <source>cannot create the FileStore file '%1': %2</source>
        <translation>FileStore ファイル '%1' を作成できません: %2</translation>
    </message>
    <message>
        <source>'%1' is a link; the default FileStore folder must be a plain folder DDP Desk creates (it never writes or deletes through a link): remove the link, choose another --out or give --store file:PATH</source>
        <translation>'%1' はリンクです。既定の FileStore フォルダーは DDP Desk が作成する通常のフォルダーである必要があります (リンク越しに書き込みや削除はしません)。リンクを外すか、別の --out を選ぶか、--store file:PATH を指定してください</translation>
    </message>
    <message>
        <source>'%1' is a file, where DDP Desk keeps the default FileStore folder; move it away, choose another --out or give --store file:PATH</source>
        <translation>'%1' はファイルですが、ここは DDP Desk が既定の FileStore フォルダーを置く場所です。移動するか、別の --out を選ぶか、--store file:PATH を指定してください</translation>
    </message>
    <message>
        <source>FileStore file '%1' already exists (left by an earlier run that did not end cleanly, or another job is using it); DDP Desk does not delete it: check it with `ddpdesk-cli doctor`, then move it away, or choose another path</source>
        <translation>FileStore ファイル '%1' が既に存在します (正常に終了しなかった以前の実行が残したものか、別のジョブが使用中です)。DDP Desk は削除しません。`ddpdesk-cli doctor` で確認してから移動するか、別のパスを選んでください</translation>
    </message>
    <message>
        <source>folder '%1' holds files DDP Desk did not put there (%2); the default FileStore folder must be empty or absent: move them, choose another --out or give --store file:PATH</source>
        <translation>フォルダー '%1' には DDP Desk が置いていないファイルがあります (%2)。既定の FileStore フォルダーは空か存在しない必要があります。移動するか、別の --out を選ぶか、--store file:PATH を指定してください</translation>
    </message>
    <message>
        <source>'%1' is a %2; DDP Desk writes %3 itself and never writes through a link or over a folder: move it away or choose another --out</source>
        <translation>'%1' は%2です。DDP Desk は %3 を自分で書き込み、リンク越しやフォルダーの上には書き込みません。移動するか、別の --out を選んでください</translation>
    </message>
    <message>
        <source>link</source>
        <translation>リンク</translation>
    </message>
    <message>
        <source>folder</source>
        <translation>フォルダー</translation>
    </message>
    <message>
        <source>special file</source>
        <translation>特殊ファイル</translation>
    </message>
<message><source>'%1' is already there and DDP Desk did not write it (%2 in that folder does not list it); DDP Desk never replaces a file of yours: move it away or choose another --out</source><translation>'%1' は既に存在し、DDP Desk が書いたものではありません (そのフォルダーの %2 に記載がありません)。DDP Desk はあなたのファイルを置き換えません: 別の場所へ移すか、別の --out を指定してください</translation></message></context>
<context>
    <name>ddpdesk::launch::ScriptInstrument</name>
    <message>
        <source>%1 is in the way of DDP Desk's instrumentation module (%2); move it, or run with --no-instrument</source>
        <translation>%1 が DDP Desk の計測モジュール (%2) の置き場所をふさいでいます。移動するか、--no-instrument を付けて実行してください</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 に書き込めません: %2</translation>
    </message>
<message><source>%1 is in the way of DDP Desk's folder for the ranks' progress and stacks; move it</source><translation>%1 が、ランクの進捗とスタックを置く DDP Desk のフォルダーの置き場所をふさいでいます。移動してください</translation></message></context>
<context>
    <name>ddpdesk::launch::Scaling</name>
    <message>
        <source>rank %1 spent %2 s (%3 of the run) in %4 that rank %5 did not make: they waited for it at their next gradient exchange, and more ranks will not shorten it</source>
        <translation>ランク %1 は、ランク %5 が行わない %4 に計 %2 秒 (実行の %3) を費やしました: ほかのランクは次の勾配交換でそれを待っており、ランクを増やしても短くなりません</translation>
    </message>
    <message>
        <source>%1 validation passes (%2 s)</source>
        <translation>検証パス %1 回 (%2 秒)</translation>
    </message>
    <message>
        <source>%1 checkpoint saves (%2 s)</source>
        <translation>チェックポイント保存 %1 回 (%2 秒)</translation>
    </message>
    <message>
        <source> and </source>
        <translation> と </translation>
    </message>
    <message>
        <source>Save less often, or save in the background: copy the state to the CPU, then write it from another thread (torch.distributed.checkpoint.async_save in PyTorch 2.3 and later).</source>
        <translation>保存の頻度を下げるか、バックグラウンドで保存してください: 状態を CPU にコピーしてから別のスレッドで書き出します (PyTorch 2.3 以降は torch.distributed.checkpoint.async_save)。</translation>
    </message>
    <message>
        <source>data loading (%1 ms a step outside forward and backward, against %2 ms on rank %3)</source>
        <translation>データ読み込み (順伝播と逆伝播の外で 1 ステップあたり %1 ms。ランク %3 では %2 ms)</translation>
    </message>
    <message>
        <source>compute (forward and backward: its time outside them is like the others')</source>
        <translation>計算 (順伝播と逆伝播。その外の時間はほかのランクと同程度)</translation>
    </message>
    <message>
        <source>compute or data loading (its time outside forward and backward was not reported)</source>
        <translation>計算かデータ読み込み (順伝播と逆伝播の外の時間は報告されていません)</translation>
    </message>
    <message>
        <source>Find what makes rank %1's %2 slower than the others': different data or work on that rank, a slower device, or a busier machine.</source>
        <translation>ランク %1 の%2がほかのランクより遅い理由を探してください: そのランクだけ違うデータや処理、より遅いデバイス、あるいは混んだマシン。</translation>
    </message>
    <message>
        <source>Give every rank a share of the validation set (a DistributedSampler over it, then all_reduce the metric), or validate less often.</source>
        <translation>検証データをすべてのランクで分担するか (検証データに DistributedSampler を使い、指標を all_reduce する)、検証の頻度を下げてください。</translation>
    </message>
    <message>
        <source>every rank here waits at least %1 of its step for the gradient exchange: the exchange, not the computation, sets the pace</source>
        <translation>ここのすべてのランクがステップの少なくとも %1 を勾配交換の待ちに費やしています: 計算ではなく交換が速度を決めています</translation>
    </message>
    <message>
        <source> (%1 of gradients a step; %2 per second while waiting)</source>
        <translation> (1 ステップあたり勾配 %1、待ち時間中の転送速度は毎秒 %2)</translation>
    </message>
    <message>
        <source>Exchange less often or less: a larger batch per rank or --accumulate, --grad-compression fp16, a faster link between the nodes (GLOO_SOCKET_IFNAME / --iface naming it), or fewer ranks.</source>
        <translation>交換の回数か量を減らしてください: ランクあたりのバッチを大きくする、--accumulate、--grad-compression fp16、ノード間の速いリンク (GLOO_SOCKET_IFNAME / --iface で指定)、またはランク数を減らす。</translation>
    </message>
    <message>
        <source>rank %1 spends %2 of its step outside forward and backward (%3 ms of %4 ms): loading data, or the script's own work between steps</source>
        <translation>ランク %1 はステップの %2 を forward と backward の外で費やしています (%4 ms 中 %3 ms): データの読み込みか、ステップ間のスクリプト自身の処理です</translation>
    </message>
    <message>
        <source>Feed the ranks faster: DataLoader num_workers and pin_memory, data on a local disk, work moved out of the training loop.</source>
        <translation>ランクへのデータ供給を速くしてください: DataLoader の num_workers と pin_memory、データをローカルディスクに置く、処理を学習ループの外へ移す。</translation>
    </message>
    <message>
        <source>%1 ranks x %2 threads = %3 threads on %4 cores: the ranks take the cores from each other</source>
        <translation>%1 ランク x %2 スレッド = %4 コアに %3 スレッド: ランク同士がコアを奪い合っています</translation>
    </message>
    <message>
        <source>Give each rank at most %1 thread(s) (--threads, or OMP_NUM_THREADS for a script), or run fewer ranks on this machine.</source>
        <translation>各ランクのスレッドを %1 以下にする (--threads、スクリプトでは OMP_NUM_THREADS) か、このマシンで動かすランクを減らしてください。</translation>
    </message>
    <message>
        <source>ranks %1 share GPU %2: they take turns on it</source>
        <translation>ランク %1 が GPU %2 を共有しています: 交代で使っています</translation>
    </message>
    <message>
        <source>One rank per GPU: --devices with each GPU once, and --nproc no larger than the GPU count.</source>
        <translation>GPU 1 基につき 1 ランクにしてください: --devices に各 GPU を一度ずつ指定し、--nproc は GPU 数以下にします。</translation>
    </message>
    <message>
        <source>rank %1's own work takes %2x the fastest rank's: every step waits for it</source>
        <translation>ランク %1 自身の処理に最速のランクの %2 倍かかっています: 毎ステップがこのランクを待っています</translation>
    </message>
    <message>
        <source>speed not reported</source>
        <translation>速度不明</translation>
    </message>
    <message>
        <source>%1 Gbit/s</source>
        <translation>%1 Gbit/s</translation>
    </message>
    <message>
        <source>%1 Mbit/s</source>
        <translation>%1 Mbit/s</translation>
    </message>
    <message>
        <source>loopback</source>
        <translation>ループバック</translation>
    </message>
    <message>
        <source>wireless</source>
        <translation>無線</translation>
    </message>
    <message>
        <source>wired</source>
        <translation>有線</translation>
    </message>
    <message>
        <source>loopback reaches no other machine</source>
        <translation>ループバックは他のマシンに届きません</translation>
    </message>
    <message>
        <source>every rank here waits at least %1 of its step for the exchange, and %2 adds a hop and often a slower path</source>
        <translation>ここのすべてのランクがステップの少なくとも %1 を交換の待ちに費やしており、%2 は経由地を 1 つ増やし、多くの場合遅い経路になります</translation>
    </message>
    <message>
        <source>every rank here waits at least %1 of its step for the exchange over the slower link</source>
        <translation>ここのすべてのランクが、遅いリンク越しの交換でステップの少なくとも %1 を待っています</translation>
    </message>
    <message>
        <source>Gloo's traffic between the nodes goes through %1 (%2): %3</source>
        <translation>ノード間の Gloo の通信は %1 を通っています (%2): %3</translation>
    </message>
    <message>
        <source>; %1 is up here too</source>
        <translation>。このマシンでは %1 も有効です</translation>
    </message>
    <message>
        <source>Name the interface the nodes reach each other through: --iface %1 (GLOO_SOCKET_IFNAME=%1 for a script, torchrun or mpirun), on every node with its own interface name.</source>
        <translation>ノード同士が通信できるインターフェースを指定してください: --iface %1 (スクリプト、torchrun、mpirun では GLOO_SOCKET_IFNAME=%1)。各ノードでそのノードのインターフェース名を指定します。</translation>
    </message>
    <message>
        <source>Name the interface the nodes reach each other through: --iface NAME (GLOO_SOCKET_IFNAME), on every node.</source>
        <translation>ノード同士が通信できるインターフェースを指定してください: すべてのノードで --iface 名前 (GLOO_SOCKET_IFNAME)。</translation>
    </message>
    <message>
        <source>the host name '%1' resolves to %2</source>
        <translation>ホスト名 '%1' は %2 に解決されます</translation>
    </message>
    <message>
        <source>each rank trains alone: no rank ran a forward of a model wrapped in DistributedDataParallel, so no gradients are exchanged and the %1 ranks train %1 separate models</source>
        <translation>各ランクが単独で学習しています: DistributedDataParallel でラップされたモデルの forward を実行したランクがないため、勾配は交換されず、%1 個のランクが %1 個の別々のモデルを学習しています</translation>
    </message>
    <message>
        <source>Wrap the model after init_process_group and before the optimizer is made: model = torch.nn.parallel.DistributedDataParallel(model) (with device_ids=[local_rank] on a GPU), and check that the script does not skip the wrap on this device (some examples wrap only on CUDA).</source>
        <translation>init_process_group の後、オプティマイザーを作る前にモデルをラップしてください: model = torch.nn.parallel.DistributedDataParallel(model) (GPU では device_ids=[local_rank] を付けて)。また、このデバイスでスクリプトがラップを飛ばしていないか確認してください (CUDA のときだけラップする例があります)。</translation>
    </message>
</context>
<context>
    <name>ddpdesk::launch::Supervisor</name>
    <message>
        <source>%1 is in a validation pass (for %2 s) that the others do not make</source>
        <translation>%1 はほかのランクが行わない検証パスの最中です (%2 秒経過)</translation>
    </message>
    <message>
        <source>The others wait for %1's validation pass; the run goes on when it ends. To keep them busy, give every rank a share of the validation set (a DistributedSampler over it, then all_reduce the metric), or validate less often.</source>
        <translation>ほかのランクは %1 の検証パスを待っています。検証が終われば実行は続きます。待たせないためには、検証データをすべてのランクで分担するか (検証データに DistributedSampler を使い、指標を all_reduce する)、検証の頻度を下げてください。</translation>
    </message>
    <message>
        <source>this node's ranks only lost a peer: waiting up to %1 s for node 0's word (a stop there) before calling the run failed</source>
        <translation>このノードのランクはピアを失っただけです: 実行を失敗とする前に、ノード 0 からの知らせ (そこでの停止) を最大 %1 秒待ちます</translation>
    </message>
    <message>
        <source>%1 lost contact first (its launcher or machine went away); then %2</source>
        <translation>%1 との連絡が先に途絶えました (そのランチャーかマシンがなくなりました)。その後 %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>stopped from node 0: %1</source>
        <translation>ノード 0 から停止されました: %1</translation>
    </message>
    <message>
        <source>node 0 asks: %1</source>
        <translation>ノード 0 からの要求: %1</translation>
    </message>
    <message>
        <source>node %1: %2</source>
        <translation>ノード %1: %2</translation>
    </message>
    <message>
        <source>%1: its launcher is connected; its ranks show here</source>
        <translation>%1: ランチャーが接続しました。そのランクはここに表示されます</translation>
    </message>
    <message>
        <source>%1: no contact for %2 s</source>
        <translation>%1: %2 秒間連絡がありません</translation>
    </message>
    <message>
        <source>node %1 (%2)</source>
        <translation>ノード %1 (%2)</translation>
    </message>
    <message>
        <source>node link: off (--no-node-link); each node shows its own ranks</source>
        <translation>ノードリンク: 無効です (--no-node-link)。各ノードは自分のランクだけを表示します</translation>
    </message>
    <message>
        <source>node link: through the folder %1 beside the FileStore (the other nodes' launchers write their ranks' events there; only what is signed with the run's secret is read)</source>
        <translation>ノードリンク: FileStore の隣のフォルダー %1 を通します (他のノードのランチャーがそこにランクのイベントを書き込みます。実行のシークレットで署名されたものだけを読みます)</translation>
    </message>
    <message>
        <source>node link: this node's events go to node 0 through the folder %1 beside the FileStore</source>
        <translation>ノードリンク: このノードのイベントは FileStore の隣のフォルダー %1 を通してノード 0 に送られます</translation>
    </message>
    <message>
        <source>node link: off, the run has no usable secret (%1)</source>
        <translation>ノードリンク: 使えるシークレットがないため無効です (%1)</translation>
    </message>
    <message>
        <source>node link: off, the store's host %1 is not an address of this machine</source>
        <translation>ノードリンク: ストアのホスト %1 はこのマシンのアドレスではないため無効です</translation>
    </message>
    <message>
        <source>node link: cannot listen on %1:%2 (%3); each node shows its own ranks</source>
        <translation>ノードリンク: %1:%2 で待ち受けできません (%3)。各ノードは自分のランクだけを表示します</translation>
    </message>
    <message>
        <source>node link: listening on %1:%2 for the other nodes' launchers (multi-node run; only those that prove the run's secret are let in)</source>
        <translation>ノードリンク: 他のノードのランチャーを %1:%2 で待ち受けています (複数ノードの実行。実行のシークレットを証明したものだけを受け入れます)</translation>
    </message>
    <message>
        <source>node link: %1 event(s) of other nodes dropped: this launcher fell behind</source>
        <translation>ノードリンク: 他のノードのイベントを %1 件破棄しました: このランチャーの処理が追いついていません</translation>
    </message>
    <message>
        <source>node link: %1</source>
        <translation>ノードリンク: %1</translation>
    </message>
    <message>
        <source>node link: refused %1: %2</source>
        <translation>ノードリンク: %1 を拒否しました: %2</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>SM clock %1 MHz against %2 MHz on GPU %3 of the fastest rank</source>
        <translation>SM クロック %1 MHz (最速のランクの GPU %3 は %2 MHz)</translation>
    </message>
    <message>
        <source>SM clock %1 MHz</source>
        <translation>SM クロック %1 MHz</translation>
    </message>
    <message numerus="yes">
        <source>%n other process(es) on its GPU (pid %1)</source>
        <translation><numerusform>その GPU 上に他のプロセスが %n 個 (pid %1)</numerusform></translation>
    </message>
    <message>
        <source>ddpdesk-worker not found next to this program (%1); reinstall DDP Desk or set DDPDESK_WORKER to its path</source>
        <translation>このプログラムと同じ場所に ddpdesk-worker が見つかりません (%1)。DDP Desk を再インストールするか、DDPDESK_WORKER にそのパスを設定してください</translation>
    </message>
    <message>
        <source>DDPDESK_WORKER=%1 is not an executable file</source>
        <translation>DDPDESK_WORKER=%1 は実行可能ファイルではありません</translation>
    </message>
    <message>
        <source>a run is already in progress</source>
        <translation>既に実行中です</translation>
    </message>
    <message>
        <source>could not start %1: %2</source>
        <translation>%1 を起動できませんでした: %2</translation>
    </message>
    <message>
        <source>rank %1 %2</source>
        <translation>ランク %1: %2</translation>
    </message>
    <message>
        <source>%1 (stopped by the launcher)</source>
        <translation>%1 (ランチャーが停止)</translation>
    </message>
    <message>
        <source>%1 (the run was being stopped: its peers ended first)</source>
        <translation>%1 (実行を停止中でした: 先にピアが終了しました)</translation>
    </message>
    <message>
        <source>stopping all workers: %1</source>
        <translation>すべてのワーカーを停止中: %1</translation>
    </message>
    <message>
        <source>rank %1 did not stop within %2 ms; killing it</source>
        <translation>ランク %1 が %2 ms 以内に停止しなかったため、強制終了します</translation>
    </message>
    <message>
        <source>%1; restarting all workers from the last checkpoint (restart %2 of %3)</source>
        <translation>%1。最後のチェックポイントからすべてのワーカーを再起動します (再起動 %2/%3 回目)</translation>
    </message>
    <message>
        <source>%1 (first failure; %2 rank(s) failed in all)</source>
        <translation>%1 (最初の失敗。失敗したランクは計 %2 個)</translation>
    </message>
    <message>
        <source>%1 (first failure)</source>
        <translation>%1 (最初の失敗)</translation>
    </message>
    <message>
        <source>could not write %1: %2</source>
        <translation>%1 を書き込めませんでした: %2</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>ステップ %1</translation>
    </message>
    <message>
        <source>rank %1: %2</source>
        <translation>ランク %1: %2</translation>
    </message>
    <message>
        <source>rank(s) behind: %1</source>
        <translation>遅れているランク: %1</translation>
    </message>
    <message>
        <source>rank(s) %1 all stuck at the same point</source>
        <translation>ランク %1 がすべて同じ地点で停止しています</translation>
    </message>
    <message>
        <source>no progress for %1 s; %2 [%3]</source>
        <translation>%1 秒間進捗がありません。%2 [%3]</translation>
    </message>
    <message>
        <source>doctor could not run: %1</source>
        <translation>診断を実行できませんでした: %1</translation>
    </message>
    <message>
        <source>resource monitor not available: %1</source>
        <translation>リソースモニターを利用できません: %1</translation>
    </message>
    <message>
        <source>exit code %1</source>
        <translation>終了コード %1</translation>
    </message>
    <message>
        <source>killed by signal %1 (%2)</source>
        <translation>シグナル %1 (%2) で強制終了</translation>
    </message>
    <message>
        <source>killed by signal %1</source>
        <translation>シグナル %1 で強制終了</translation>
    </message>
    <message>
        <source>stall: %1</source>
        <translation>停滞: %1</translation>
    </message>
<message><source>node %1 of a %2-node run needs node 0's run secret: give %3 (node 0's launcher prints the command for the other nodes)</source><translation>%2 ノードの実行のノード %1 には、ノード 0 の実行シークレットが必要です: %3 を指定してください (ノード 0 のランチャーが他のノード用のコマンドを表示します)</translation></message><message><source>warning: multi-node run: the store %1 is unauthenticated and reachable from the network (%2); anyone who reaches it can read what the ranks write there. Allow its port and Gloo's ports only from the other nodes (README, Security model).</source><translation>警告: 複数ノードの実行: ストア %1 は認証がなく、ネットワークから到達できます (%2)。到達できる人は誰でも、ランクがそこに書き込む内容を読めます。そのポートと Gloo のポートは他のノードからの接続だけに許可してください (README の Security model を参照)。</translation></message><message><source>note: multi-node run: the store %1 is unauthenticated, and on loopback (%2): only processes on this machine reach it, so every node of this run must run here too.</source><translation>注意: 複数ノードの実行: ストア %1 は認証がなく、ループバック上にあります (%2)。到達できるのはこのマシン上のプロセスだけなので、この実行のすべてのノードもこのマシンで動かす必要があります。</translation></message><message><source>the script's store is hosted by DDP Desk on 127.0.0.1:%1 (loopback only)</source><translation>スクリプトのストアは DDP Desk が 127.0.0.1:%1 でホストしています (ループバックのみ)</translation></message><message><source>cannot restart: %1</source><translation>再起動できません: %1</translation></message><message><source>cannot host the script's store on 127.0.0.1:%1: %2</source><translation>スクリプトのストアを 127.0.0.1:%1 でホストできません: %2</translation></message><message><source>no progress for %1 s</source><translation>%1 秒間進捗なし</translation></message><message><source>stacks: only script ranks started with DDP Desk's instrumentation (not --no-instrument) show their Python stacks</source><translation>スタック: Python スタックを表示できるのは、DDP Desk の計測付きで (--no-instrument なしで) 起動したスクリプトのランクだけです</translation></message><message><source>stacks: no rank can be asked yet (a rank announces itself once its interpreter has started)</source><translation>スタック: まだ要求できるランクがありません (ランクはインタープリターの起動後に名乗り出ます)</translation></message><message><source>stacks: rank %1 (pid %2) wrote none within %3 ms</source><translation>スタック: ランク %1 (pid %2) は %3 ms 以内に何も書き出しませんでした</translation></message><message><source>stacks of rank %1 (%2):
%3</source><translation>ランク %1 のスタック (%2):
%3</translation></message><message><source>TensorBoard: %1</source><translation>TensorBoard: %1</translation></message><message><source>TensorBoard: %1 already holds event files of an earlier run in this folder; TensorBoard shows them as one run with this one's</source><translation>TensorBoard: %1 にはこのフォルダーでの以前の実行のイベントファイルがあります。TensorBoard はそれらをこの実行と 1 つの実行として表示します</translation></message><message><source>warning: the run secret could not be saved for the other nodes (%1); start node 0 with %2 FILE and give the other nodes the same file</source><translation>警告: 他のノード用に実行シークレットを保存できませんでした (%1)。ノード 0 を %2 FILE で起動し、他のノードにも同じファイルを渡してください</translation></message><message><source>other nodes join with (N = 1..%1; first copy %2 to each node, readable only by you there too: chmod 600):
  %3</source><translation>他のノードは次のコマンドで参加します (N = 1..%1。先に %2 を各ノードへコピーし、そこでもあなただけが読めるようにしてください: chmod 600):
  %3</translation></message>
    <message>
        <source>store server [%1]: %2</source>
        <translation>ストアサーバー [%1]: %2</translation>
    </message>
    <message>
        <source>no rank here is behind another (rank(s) %1 at the same point): they wait for a rank elsewhere or for the store</source>
        <translation>ここでは他より遅れているランクはありません (ランク %1 は同じ地点): 別の場所のランクかストアを待っています</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>ランク %1</translation>
    </message>
    <message>
        <source>ranks %1</source>
        <translation>ランク %1</translation>
    </message>
    <message>
        <source>%1 behind</source>
        <translation>%1 が遅れています</translation>
    </message>
    <message>
        <source>%1 has not entered %2 that %3 entered %4 s ago</source>
        <translation>%3 が %4 秒前に入った %2 に %1 がまだ入っていません</translation>
    </message>
    <message>
        <source>%1 have not entered %2 that %3 entered %4 s ago</source>
        <translation>%3 が %4 秒前に入った %2 に %1 がまだ入っていません</translation>
    </message>
    <message>
        <source>rank %1 is at %2</source>
        <translation>ランク %1 は %2 にいます</translation>
    </message>
    <message>
        <source>Everyone waits for %1: look at what it does there (slow data loading, a sleep or a lock, a branch only some ranks take that skips a collective, a device that hangs).</source>
        <translation>全員が %1 を待っています: そこで何をしているかを確認してください (遅いデータ読み込み、sleep やロック、一部のランクだけが通って集団通信を飛ばす分岐、応答しないデバイス)。</translation>
    </message>
    <message>
        <source>%1 in different collectives</source>
        <translation>%1 が異なる集団通信にいます</translation>
    </message>
    <message>
        <source>rank %1 in %2</source>
        <translation>ランク %1 は %2</translation>
    </message>
    <message>
        <source>the ranks wait in different collectives for %1 s: %2; their code paths diverged and none of them can finish</source>
        <translation>ランクは異なる集団通信で %1 秒待っています: %2。コードの経路が分かれたため、どのランクも終われません</translation>
    </message>
    <message>
        <source>Make every rank run the same collectives in the same order with the same shapes: look for a branch only some ranks take around the lines named (if rank == 0: ...), such as rank 0 alone calling the DDP model or a collective.</source>
        <translation>すべてのランクが同じ集団通信を同じ順序・同じ形状で実行するようにしてください: 示した行の周りで一部のランクだけが通る分岐 (if rank == 0: ...) を探してください。たとえばランク 0 だけが DDP モデルや集団通信を呼んでいる場合です。</translation>
    </message>
    <message>
        <source>every rank of this run (all on this machine) has waited in %1 for %2 s and none of them is behind: they may be in collectives that do not match (a branch only some ranks take), or the transport between them hangs</source>
        <translation>この実行のすべてのランク (すべてこのマシン上) が %1 で %2 秒待っており、遅れているランクはありません: 一致しない集団通信にいる (一部のランクだけが通る分岐) か、ランク間の通信が止まっています</translation>
    </message>
    <message>
        <source>Show stacks to see where each rank is: look for a rank-dependent branch around a collective or a DDP forward; TORCH_DISTRIBUTED_DEBUG=DETAIL names the first difference.</source>
        <translation>スタックを表示して各ランクの位置を確認してください: 集団通信や DDP の forward の周りにあるランクごとの分岐を探してください。TORCH_DISTRIBUTED_DEBUG=DETAIL で最初の違いが分かります。</translation>
    </message>
    <message>
        <source>every rank here has waited in %1 for %2 s and none of them is behind: a rank elsewhere (on another node) has not entered it, or the network does not carry the data</source>
        <translation>ここのすべてのランクが %1 で %2 秒待っており、遅れているランクはありません: 別の場所 (別のノード) のランクがまだ入っていないか、ネットワークがデータを運んでいません</translation>
    </message>
    <message>
        <source>Check that every node's ranks are running (Diagnose reads the store), and that GLOO_SOCKET_IFNAME names a link all nodes share.</source>
        <translation>すべてのノードのランクが動いているか (診断はストアを読みます)、GLOO_SOCKET_IFNAME がすべてのノードで共通の回線を指しているかを確認してください。</translation>
    </message>
    <message>
        <source>hold-up [%1]: %2</source>
        <translation>停滞 [%1]: %2</translation>
    </message>
    <message>
        <source>data loading (its time outside forward and backward)</source>
        <translation>データ読み込み (順伝播と逆伝播以外の時間)</translation>
    </message>
    <message>
        <source>compute (its step less the time it waited for the others)</source>
        <translation>計算 (ステップ時間から他のランクを待った時間を引いたもの)</translation>
    </message>
    <message>
        <source>rank %1's own work per step has taken %2x the fastest rank's (rank %3) for %4 s: %5 takes %6 ms a step against %7 ms; the other ranks wait for it in the gradient exchange</source>
        <translation>ランク %1 の 1 ステップあたりの自身の処理時間が、最も速いランク (ランク %3) の %2 倍の状態が %4 秒続いています: %5 が 1 ステップ %6 ms (最速は %7 ms)。他のランクは勾配交換でこのランクを待っています</translation>
    </message>
    <message>
        <source>CPU %1 %</source>
        <translation>CPU %1 %</translation>
    </message>
    <message>
        <source>%1 threads</source>
        <translation>スレッド %1</translation>
    </message>
    <message>
        <source>GPU %1 at %2 % utilization</source>
        <translation>GPU %1 の使用率 %2 %</translation>
    </message>
    <message>
        <source>; its process: %1</source>
        <translation>。プロセス: %1</translation>
    </message>
    <message>
        <source>Give rank %1's input pipeline more room (DataLoader num_workers, pin_memory, data on a local disk) or look for what else its process does between steps.</source>
        <translation>ランク %1 の入力パイプラインに余裕を持たせるか (DataLoader の num_workers、pin_memory、データをローカルディスクに置く)、ステップの合間にそのプロセスが何をしているかを確認してください。</translation>
    </message>
    <message>
        <source>Look at what runs beside rank %1: another process on its cores or its GPU, more threads than cores (threads x ranks), a slower or hotter GPU, a lower clock.</source>
        <translation>ランク %1 の横で何が動いているかを確認してください: 同じコアや GPU 上の別のプロセス、コア数を超えるスレッド (スレッド数 x ランク数)、遅いまたは高温の GPU、低いクロック。</translation>
    </message>
    <message>
        <source>straggler [%1]: %2</source>
        <translation>遅いランク [%1]: %2</translation>
    </message>
    <message>
        <source>node %1: no DDP Desk launcher connected for it, but the store shows its rank(s) %2 (started by another launcher); shown from the store only</source>
        <translation>ノード %1: DDP Desk のランチャーは接続していませんが、ストアにランク %2 があります (別のランチャーが起動)。ストアの情報だけで表示します</translation>
    </message>
</context>
<context>
    <name>ddpdesk::launch::SweepRunner</name>
    <message>
        <source>--nproc-list: '%1' is not a worker count; use a list like 1,2,4</source>
        <translation>--nproc-list: '%1' はワーカー数ではありません。1,2,4 のようなリストを指定してください</translation>
    </message>
    <message>
        <source>--nproc-list: empty; use a list like 1,2,4</source>
        <translation>--nproc-list: 空です。1,2,4 のようなリストを指定してください</translation>
    </message>
    <message>
        <source>--gpu-sets: '%1' is not a GPU index; use sets like 0;0,1;0,1,2,3</source>
        <translation>--gpu-sets: '%1' は GPU 番号ではありません。0;0,1;0,1,2,3 のような組を指定してください</translation>
    </message>
    <message>
        <source>--gpu-sets: empty; use sets like 0;0,1;0,1,2,3</source>
        <translation>--gpu-sets: 空です。0;0,1;0,1,2,3 のような組を指定してください</translation>
    </message>
    <message>
        <source>no sizes to run; use --nproc-list 1,2,4</source>
        <translation>実行するサイズがありません。--nproc-list 1,2,4 のように指定してください</translation>
    </message>
    <message>
        <source>sweep stopped by the user</source>
        <translation>ユーザーがスイープを停止しました</translation>
    </message>
<message><source>'%1' is a link; the sweep keeps each size's run in a plain folder of its own and never writes through a link: move it away or choose another --out</source><translation>'%1' はリンクです。スイープは各サイズの実行をそれぞれ専用の通常フォルダーに保存し、リンク越しには書き込みません: 移動するか、別の --out を選んでください</translation></message><message><source>--compare: '%1' is not SETTING=VALUE,VALUE; use e.g. precision=fp32,bf16 or grad-compression=none,fp16</source><translation>--compare: '%1' は 設定=値,値 の形ではありません。例: precision=fp32,bf16 や grad-compression=none,fp16</translation></message><message><source>--compare: '%1' is given twice; each value runs once</source><translation>--compare: '%1' が 2 回指定されています。各値は 1 回だけ実行します</translation></message><message><source>%1: a script run does not take the worker's training settings (only threads); compare them on a built-in workload</source><translation>%1: スクリプトの実行にはワーカーの学習設定は渡されません (threads を除く)。組み込みワークロードで比較してください</translation></message></context>
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
<message><source>Gradients/step</source><translation>勾配/ステップ</translation></message><message><source>Also compare:</source><translation>あわせて比較:</translation></message><message><source>nothing else</source><translation>なし</translation></message><message><source>precision: fp32 vs bf16</source><translation>精度: fp32 と bf16</translation></message><message><source>gradient compression: none vs fp16 vs bf16</source><translation>勾配圧縮: なし・fp16・bf16</translation></message><message><source>accumulate steps: 1 vs 4</source><translation>勾配累積ステップ: 1 と 4</translation></message><message><source>Runs every size once per value of this setting, so its effect on throughput, loss and gradient bytes shows side by side.</source><translation>各サイズをこの設定の値ごとに 1 回ずつ実行し、スループット、損失、勾配バイト数への影響を並べて表示します。</translation></message><message><source>Setting</source><translation>設定</translation></message><message><source>Running size %1 of %2 (%3 workers, %4)...</source><translation>サイズ %1/%2 を実行中 (ワーカー %3、%4)...</translation></message><message><source>measured, %1</source><translation>実測、%1</translation></message>    <message>
        <source>none found</source>
        <translation>見つかりません</translation>
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
        <source>Rename the stale store file aside</source>
        <translation>古いストアファイルの名前を変更して退避</translation>
    </message>
    <message>
        <source>Rename %1 to %2?

New runs can then use the store path again; the old run's keys stay in the renamed file, and nothing is deleted. A rank that still waited on the old store would time out.</source>
        <translation>%1 の名前を %2 に変更しますか?

新しい実行は再びこのストアパスを使えるようになります。以前の実行のキーは名前を変更したファイルに残り、何も削除されません。古いストアでまだ待機しているランクがあれば、そのランクはタイムアウトします。</translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation>何も変更していません。</translation>
    </message>
    <message>
        <source>Pick a free port</source>
        <translation>空きポートを選ぶ</translation>
    </message>
    <message>
        <source>file:C:\shared\store or tcp://host:29500</source>
        <translation>file:C:\shared\store または tcp://host:29500</translation>
    </message>
    <message>
        <source>The diagnosis itself failed: %1</source>
        <translation>診断そのものが失敗しました: %1</translation>
    </message>
</context>
<context>
    <name>ddpdesk::ui::DoctorTexts</name>
    <message>
        <source>World size %1 is not valid.</source>
        <translation>ワールドサイズ %1 は無効です。</translation>
    </message>
    <message>
        <source>Use the total number of ranks over all nodes (1 or more).</source>
        <translation>全ノードのランクの合計数 (1 以上) を指定してください。</translation>
    </message>
    <message>
        <source>The ranks in this store were started with a different world size than the one given.</source>
        <translation>このストアのランクは、指定されたものとは異なるワールドサイズで起動されています。</translation>
    </message>
    <message>
        <source>Start every rank with the same --world-size (the total number of ranks).</source>
        <translation>すべてのランクを同じ --world-size (ランクの合計数) で起動してください。</translation>
    </message>
    <message>
        <source>The ranks in this store were started with a different world size than each other.</source>
        <translation>このストアのランクは、互いに異なるワールドサイズで起動されています。</translation>
    </message>
    <message>
        <source>The job in this store runs with a world size of at least %1, not %2.</source>
        <translation>このストアのジョブはワールドサイズ %2 ではなく、少なくとも %1 で実行されています。</translation>
    </message>
    <message>
        <source>Start every rank with the same --world-size (the total number of ranks over all nodes).</source>
        <translation>すべてのランクを同じ --world-size (全ノードのランクの合計数) で起動してください。</translation>
    </message>
    <message>
        <source>Rank %1 is outside 0..%2 for world size %3.</source>
        <translation>ランク %1 はワールドサイズ %3 の範囲 0..%2 の外です。</translation>
    </message>
    <message>
        <source>Ranks run from 0 to world_size-1; check --rank and --world-size on every node.</source>
        <translation>ランクは 0 から world_size-1 までです。すべてのノードで --rank と --world-size を確認してください。</translation>
    </message>
    <message>
        <source>Rank(s) %1 arrived, but with world size %2 ranks must be 0..%3.</source>
        <translation>ランク %1 が到着しましたが、ワールドサイズ %2 ではランクは 0..%3 でなければなりません。</translation>
    </message>
    <message>
        <source>Use ranks 0..world_size-1 and the same world size on every node.</source>
        <translation>すべてのノードでランク 0..world_size-1 と同じワールドサイズを使ってください。</translation>
    </message>
    <message>
        <source>Node rank %1 is not valid.</source>
        <translation>ノードランク %1 は無効です。</translation>
    </message>
    <message>
        <source>Node ranks start at 0 (the master node).</source>
        <translation>ノードランクは 0 (マスターノード) から始まります。</translation>
    </message>
    <message>
        <source>Store address: %1.</source>
        <translation>ストアのアドレス: %1。</translation>
    </message>
    <message>
        <source>Use file:PATH (one machine or a shared folder) or tcp://HOST:PORT.</source>
        <translation>file:PATH (1 台のマシンまたは共有フォルダー) か tcp://HOST:PORT を使ってください。</translation>
    </message>
    <message>
        <source>No rank has arrived in this store yet.</source>
        <translation>このストアにはまだどのランクも到着していません。</translation>
    </message>
    <message>
        <source>Rank(s) %1 joined this store more than once: two launches (or a stale store from an earlier run) share it.</source>
        <translation>ランク %1 がこのストアに複数回参加しています: 2 つの起動 (または以前の実行が残した古いストア) が同じストアを共有しています。</translation>
    </message>
    <message>
        <source>Stop the other launch, or delete the stale store file and start once.</source>
        <translation>もう一方の起動を停止するか、古いストアファイルを削除してから 1 回だけ起動してください。</translation>
    </message>
    <message>
        <source>Rank %1 has already joined this store; starting it again makes two processes claim the same rank.</source>
        <translation>ランク %1 は既にこのストアに参加しています。再度起動すると 2 つのプロセスが同じランクを名乗ることになります。</translation>
    </message>
    <message>
        <source>Give each process its own rank 0..world_size-1, or use a fresh store.</source>
        <translation>各プロセスに固有のランク 0..world_size-1 を割り当てるか、新しいストアを使ってください。</translation>
    </message>
    <message>
        <source>More processes joined this store (%1) than the world size (%2): a stale store or a double launch; torch's store-based barrier then waits forever.</source>
        <translation>このストアに参加したプロセス数 (%1) がワールドサイズ (%2) を超えています: 古いストアか二重起動が原因です。このままでは torch のストアベースのバリアが永久に待ち続けます。</translation>
    </message>
    <message>
        <source>Stop the other launch that uses this store, or delete the stale store file / pick a fresh port, then start all ranks once.</source>
        <translation>このストアを使っているもう一方の起動を停止するか、古いストアファイルを削除する / 新しいポートを選んでから、すべてのランクを 1 回だけ起動してください。</translation>
    </message>
    <message>
        <source>%1 of %2 ranks arrived; rank(s) %3 never joined, so the others wait in rendezvous.</source>
        <translation>%2 ランク中 %1 ランクが到着しました。ランク %3 が参加していないため、他のランクはランデブーで待機しています。</translation>
    </message>
    <message>
        <source>Start the missing rank(s) with the same store and world size, or check why they failed (their log, their node's reachability of the store).</source>
        <translation>足りないランクを同じストアとワールドサイズで起動するか、失敗した原因 (そのログ、そのノードからストアに到達できるか) を確認してください。</translation>
    </message>
    <message>
        <source>%1 of %2 ranks arrived (by the barrier counter); which ones is not recorded. The others wait in rendezvous.</source>
        <translation>%2 ランク中 %1 ランクが到着しました (バリアのカウンターによる)。どのランクかは記録されていません。他のランクはランデブーで待機しています。</translation>
    </message>
    <message>
        <source>%1 of %2 ranks arrived (by the TCPStore's client counter); which ones is not recorded. The others wait in rendezvous.</source>
        <translation>%2 ランク中 %1 ランクが到着しました (TCPStore のクライアントカウンターによる)。どのランクかは記録されていません。他のランクはランデブーで待機しています。</translation>
    </message>
    <message>
        <source>All %1 ranks arrived.</source>
        <translation>全 %1 ランクが到着しました。</translation>
    </message>
    <message>
        <source>%1 rank(s) arrived; pass the world size to learn which are missing.</source>
        <translation>%1 ランクが到着しました。どのランクが足りないかを知るにはワールドサイズを指定してください。</translation>
    </message>
    <message>
        <source>Rank %1 (pid %2) arrived but has exited since.</source>
        <translation>ランク %1 (pid %2) は到着しましたが、その後終了しています。</translation>
    </message>
    <message>
        <source>Read that rank's log for its error; restart the job.</source>
        <translation>そのランクのログでエラーを確認し、ジョブを再起動してください。</translation>
    </message>
    <message>
        <source>The folder for the store file does not exist: %1 (c10d would wait on it until the timeout instead of failing).</source>
        <translation>ストアファイルのフォルダーが存在しません: %1 (c10d は失敗せず、タイムアウトまで待ち続けます)。</translation>
    </message>
    <message>
        <source>Create the folder, or choose a store path in an existing folder.</source>
        <translation>フォルダーを作成するか、既存のフォルダー内のストアパスを選んでください。</translation>
    </message>
    <message>
        <source>%1 is a folder; the store needs a file path.</source>
        <translation>%1 はフォルダーです。ストアにはファイルのパスが必要です。</translation>
    </message>
    <message>
        <source>Use a file inside that folder, e.g. %2.</source>
        <translation>そのフォルダー内のファイルを使ってください (例: %2)。</translation>
    </message>
    <message>
        <source>The store file cannot be written: %1.</source>
        <translation>ストアファイルに書き込めません: %1。</translation>
    </message>
    <message>
        <source>Choose a folder every rank can write to (check permissions, read-only mounts and network-share access).</source>
        <translation>すべてのランクが書き込めるフォルダーを選んでください (権限、読み取り専用マウント、ネットワーク共有へのアクセスを確認してください)。</translation>
    </message>
    <message>
        <source>The job is said to be running but its store file does not exist: it was deleted under the job (an early destroy_process_group, a cleanup, or a second launch on the same store: c10d's FileStore deletes the file once as many ranks as the world size have exited) or the path differs.</source>
        <translation>ジョブは実行中のはずですが、ストアファイルが存在しません: ジョブの実行中に削除された (早すぎる destroy_process_group、クリーンアップ、または同じストアでの 2 回目の起動: c10d の FileStore はワールドサイズと同じ数のランクが終了するとファイルを削除します) か、パスが異なります。</translation>
    </message>
    <message>
        <source>Check that every rank uses exactly this path and that no second launch shares it; restart the job.</source>
        <translation>すべてのランクがまったく同じパスを使い、2 回目の起動がそれを共有していないことを確認し、ジョブを再起動してください。</translation>
    </message>
    <message>
        <source>The folder is writable and no old store file is in the way.</source>
        <translation>フォルダーは書き込み可能で、邪魔になる古いストアファイルはありません。</translation>
    </message>
    <message>
        <source>%1.</source>
        <translation>%1。</translation>
    </message>
    <message>
        <source>Pick another store path; this file belongs to something else.</source>
        <translation>別のストアパスを選んでください。このファイルは別の用途のものです。</translation>
    </message>
    <message>
        <source>An empty store file exists; c10d can reuse it.</source>
        <translation>空のストアファイルがあります。c10d はこれを再利用できます。</translation>
    </message>
    <message>
        <source>No live process uses this store any more: the job has exited or was killed.</source>
        <translation>このストアを使っている稼働中のプロセスはもうありません: ジョブは終了したか、強制終了されました。</translation>
    </message>
    <message>
        <source>Restart the job; rename the store file aside first (it holds the old run's keys).</source>
        <translation>ジョブを再起動してください。先にストアファイルの名前を変更して退避してください (以前の実行のキーが残っています)。</translation>
    </message>
    <message>
        <source>A store file from an earlier run is in the way (%1 keys, last written %4 s ago, longer than ranks wait in rendezvous (%5)); new ranks would mix with its keys and hang or miscount.</source>
        <translation>以前の実行のストアファイルが残っています (キー %1 個、最終書き込みは %4 秒前で、ランクがランデブーで待つ時間 (%5) より長く経っています)。新しいランクがそのキーと混ざり、停止したり数を誤ったりします。</translation>
    </message>
    <message>
        <source>A store file from an earlier run is in the way (%1 keys, %4 of %5 ranks arrived and none is running here); new ranks would mix with its keys and hang or miscount.</source>
        <translation>以前の実行のストアファイルが残っています (キー %1 個、%5 ランク中 %4 ランクが到着済みで、このマシンで動いているものはありません)。新しいランクがそのキーと混ざり、停止したり数を誤ったりします。</translation>
    </message>
    <message>
        <source>Rename %3 aside (no live process uses it; it becomes NAME.stale-DATE-TIME), or choose a new path.</source>
        <translation>%3 の名前を変更して退避する (使用中のプロセスはありません。名前は NAME.stale-日付-時刻 になります) か、新しいパスを選んでください。</translation>
    </message>
    <message>
        <source>No process here is seen using the store file, but it is not stale: this is node %1: ranks on another node that shares this folder may still be waiting on the store, and this node cannot see them; only node 0 (or --force) calls it stale.</source>
        <translation>このマシンではストアファイルを使っているプロセスは見えませんが、古いとは言えません: ここはノード %1 です。このフォルダーを共有する別のノードのランクがまだストアで待機しているかもしれず、このノードからは見えません。古いと判断するのはノード 0 (または --force) だけです。</translation>
    </message>
    <message>
        <source>Run the doctor on node 0, or pass --force once no node uses %2; or choose a new store path.</source>
        <translation>ノード 0 で診断を実行するか、どのノードも %2 を使っていなくなってから --force を指定するか、新しいストアパスを選んでください。</translation>
    </message>
    <message>
        <source>No process here is seen using the store file, but it is not stale: %1 of %2 ranks arrived, last write %3 s ago; ranks may wait up to %4: not stale yet.</source>
        <translation>このマシンではストアファイルを使っているプロセスは見えませんが、古いとは言えません: %2 ランク中 %1 ランクが到着し、最終書き込みは %3 秒前です。ランクは最大 %4 待機することがあるため、まだ古くありません。</translation>
    </message>
    <message>
        <source>No process here is seen using the store file, but it is not stale: %1 rank(s) arrived, last write %2 s ago, and the world size is unknown; ranks may wait up to %3: not stale yet.</source>
        <translation>このマシンではストアファイルを使っているプロセスは見えませんが、古いとは言えません: %1 ランクが到着し、最終書き込みは %2 秒前で、ワールドサイズは不明です。ランクは最大 %3 待機することがあるため、まだ古くありません。</translation>
    </message>
    <message>
        <source>If this run is wanted, start its missing ranks; if not, choose a new store path (or, once no rank waits, pass a shorter --rendezvous-timeout).</source>
        <translation>この実行が必要なら、不足しているランクを起動してください。不要なら、新しいストアパスを選んでください (または、待機しているランクがなくなってから、より短い --rendezvous-timeout を指定してください)。</translation>
    </message>
    <message>
        <source>Another live process holds the store file: %1.</source>
        <translation>稼働中の別のプロセスがストアファイルを保持しています: %1。</translation>
    </message>
    <message>
        <source>End that process (or let its run finish), or pick another store path. If it is the job you want to diagnose, run the doctor with --running.</source>
        <translation>そのプロセスを終了する (またはその実行の完了を待つ) か、別のストアパスを選んでください。それが診断したいジョブであれば、--running を付けて診断を実行してください。</translation>
    </message>
    <message>
        <source>A live run is using this store file: %1.</source>
        <translation>稼働中の実行がこのストアファイルを使っています: %1。</translation>
    </message>
    <message>
        <source>The job's store is live: %1.</source>
        <translation>ジョブのストアは稼働中です: %1。</translation>
    </message>
    <message>
        <source>Port %1 is already taken by %2: a TCPStore of another job is listening there (%3 keys). The TCPStore on node 0 could not listen there (errno 98, address in use).</source>
        <translation>ポート %1 は既に %2 が使用しています: 別のジョブの TCPStore が待ち受けています (キー %3 個)。ノード 0 の TCPStore はこのポートで待ち受けできません (errno 98、アドレス使用中)。</translation>
    </message>
    <message>
        <source>Use a free port, e.g. %4, or end %2.</source>
        <translation>空いているポート (例: %4) を使うか、%2 を終了してください。</translation>
    </message>
    <message>
        <source>Port %1 is already taken by %2: something that is not a TCPStore listens there (%3). The TCPStore on node 0 could not listen there (errno 98, address in use).</source>
        <translation>ポート %1 は既に %2 が使用しています: TCPStore ではないものが待ち受けています (%3)。ノード 0 の TCPStore はこのポートで待ち受けできません (errno 98、アドレス使用中)。</translation>
    </message>
    <message>
        <source>Port %1 is already taken by %2: a socket is bound to it (not listening yet). The TCPStore on node 0 could not listen there (errno 98, address in use).</source>
        <translation>ポート %1 は既に %2 が使用しています: ソケットがバインドされています (まだ待ち受けていません)。ノード 0 の TCPStore はこのポートで待ち受けできません (errno 98、アドレス使用中)。</translation>
    </message>
    <message>
        <source>This node's hostname '%1' resolves only to loopback (%2), so Gloo would advertise an address other nodes cannot reach (they fail with 'connect [127.0.1.1]: Connection refused'). Harmless while every rank runs on this machine.</source>
        <translation>このノードのホスト名 '%1' はループバック (%2) にしか解決されないため、Gloo は他のノードから到達できないアドレスを通知します (他のノードは 'connect [127.0.1.1]: Connection refused' で失敗します)。すべてのランクがこのマシンで動く間は問題ありません。</translation>
    </message>
    <message>
        <source>For multi-node runs set GLOO_SOCKET_IFNAME to this node's network interface (e.g. eth0), or map the hostname to the real address in /etc/hosts.</source>
        <translation>複数ノードで実行するときは GLOO_SOCKET_IFNAME にこのノードのネットワークインターフェース (例: eth0) を設定するか、/etc/hosts でホスト名を実際のアドレスに対応付けてください。</translation>
    </message>
    <message>
        <source>'%1' is not a usable TCP port (expected a number 1..65535).</source>
        <translation>'%1' は使用できる TCP ポートではありません (1..65535 の数値が必要です)。</translation>
    </message>
    <message>
        <source>Use a port such as %2 (29500 is PyTorch's default).</source>
        <translation>%2 などのポートを使ってください (PyTorch の既定は 29500 です)。</translation>
    </message>
    <message>
        <source>The store host '%1' does not resolve: %2.</source>
        <translation>ストアのホスト '%1' を名前解決できません: %2。</translation>
    </message>
    <message>
        <source>Use the master node's IP address, or fix its name in DNS or the hosts file.</source>
        <translation>マスターノードの IP アドレスを使うか、DNS または hosts ファイルでその名前を修正してください。</translation>
    </message>
    <message>
        <source>Node %1 would connect to %2, which is this machine itself, not the master node.</source>
        <translation>ノード %1 は %2 に接続しようとしていますが、これはマスターノードではなくこのマシン自身です。</translation>
    </message>
    <message>
        <source>Use the master node's network address in the store address.</source>
        <translation>ストアのアドレスにはマスターノードのネットワークアドレスを使ってください。</translation>
    </message>
    <message>
        <source>A TCPStore answers at %1:%2 (%3 keys).</source>
        <translation>%1:%2 で TCPStore が応答しています (キー %3 個)。</translation>
    </message>
    <message>
        <source>Something listens at %1:%2 but does not answer like a c10d TCPStore: %3.</source>
        <translation>%1:%2 で何かが待ち受けていますが、c10d の TCPStore として応答しません: %3。</translation>
    </message>
    <message>
        <source>Check the port: another service owns it. Point every rank at the port the master's TCPStore really uses.</source>
        <translation>ポートを確認してください: 別のサービスが使っています。すべてのランクを、マスターの TCPStore が実際に使っているポートに向けてください。</translation>
    </message>
    <message>
        <source>The OS refuses to let this node listen on port %1 (%2): on Windows it lies in an excluded port range (see 'netsh interface ipv4 show excludedportrange protocol=tcp'); on Linux ports below 1024 need privileges.</source>
        <translation>OS がこのノードでのポート %1 の待ち受けを拒否しています (%2): Windows では除外ポート範囲内にあります ('netsh interface ipv4 show excludedportrange protocol=tcp' を参照)。Linux では 1024 未満のポートに特権が必要です。</translation>
    </message>
    <message>
        <source>Pick a port outside those ranges, e.g. %3.</source>
        <translation>それらの範囲外のポート (例: %3) を選んでください。</translation>
    </message>
    <message>
        <source>Port %1 is free for the TCPStore.</source>
        <translation>ポート %1 は TCPStore に使用できます。</translation>
    </message>
    <message>
        <source>Nothing listens at %1:%2: the master (node 0, rank 0) has not started yet or has crashed.</source>
        <translation>%1:%2 では何も待ち受けていません: マスター (ノード 0、ランク 0) がまだ起動していないか、クラッシュしています。</translation>
    </message>
    <message>
        <source>Start node 0 first (it hosts the TCPStore), check it is still running, and that every node uses the same host and port.</source>
        <translation>ノード 0 (TCPStore をホストします) を最初に起動し、それが動き続けていること、すべてのノードが同じホストとポートを使っていることを確認してください。</translation>
    </message>
    <message>
        <source>No answer from %1:%2 within %3 ms: packets are dropped, typically by a firewall. Note that Gloo also opens further pairwise connections between all nodes on other (ephemeral) ports, so opening only the store port is not enough.</source>
        <translation>%1:%2 から %3 ms 以内に応答がありません: パケットが破棄されています (多くはファイアウォールによるもの)。Gloo はすべてのノード間で別の (エフェメラル) ポートにも接続を開くため、ストアのポートだけを開放しても不十分です。</translation>
    </message>
    <message>
        <source>Allow the program (ddpdesk-worker / python) through the firewall on every node rather than a single port, and check that the master address is right.</source>
        <translation>単一のポートではなく、プログラム (ddpdesk-worker / python) をすべてのノードのファイアウォールで許可し、マスターのアドレスが正しいか確認してください。</translation>
    </message>
    <message>
        <source>Cannot reach %1:%2: %3.</source>
        <translation>%1:%2 に到達できません: %3。</translation>
    </message>
    <message>
        <source>Check the network route to the master node and its address.</source>
        <translation>マスターノードへのネットワーク経路とそのアドレスを確認してください。</translation>
    </message>
    <message>
        <source>The diagnosis stopped at its deadline of %1 s while %2; the other findings are what it learned until then.</source>
        <translation>診断は期限の %1 秒に達したため、%2 の途中で止まりました。他の所見はそれまでに分かったことです。</translation>
    </message>
    <message>
        <source>Look at what was slow (%2), or run the doctor again with a longer deadline (ddpdesk-cli doctor --deadline SEC).</source>
        <translation>時間のかかった処理 (%2) を確認するか、より長い期限で診断をやり直してください (ddpdesk-cli doctor --deadline SEC)。</translation>
    </message>
    <message>
        <source>The store on port %1 listens on %2: anyone who can reach this machine can join as a rank, read the store's keys or change them, and so stall or take over the run.</source>
        <translation>ポート %1 のストアは %2 で待ち受けています: このマシンに到達できる誰もがランクとして参加し、ストアのキーを読んだり書き換えたりして、実行を止めたり乗っ取ったりできます。</translation>
    </message>
    <message>
        <source>Allow port %1 in the firewall only from the training nodes. Single-node runs need no network: use a FileStore (it never listens), or a loopback store (tcp://127.0.0.1:%1) with a LibTorch that hosts it on loopback only (2.3 or newer, not on Windows); PyTorch 1.x's TCPStore listens on every interface whatever host it is given.</source>
        <translation>ファイアウォールでポート %1 を学習ノードからの接続だけに許可してください。単一ノードの実行にネットワークは要りません: FileStore (待ち受けをしません) を使うか、ループバックだけで待ち受けられる LibTorch (2.3 以降、Windows 以外) でループバックのストア (tcp://127.0.0.1:%1) を使ってください。PyTorch 1.x の TCPStore は、指定したホストにかかわらずすべてのインターフェースで待ち受けます。</translation>
    </message>
    <message>
        <source>The TCPStore at %1 announced %2 bytes for key '%3'; the doctor reads at most %4 bytes per value and stopped reading it. Rank records are small: something other than the job writes to this store. Not all ranks probed.</source>
        <translation>%1 の TCPStore はキー '%3' の値を %2 バイトと示しました。診断が読む値は最大 %4 バイトなので、読み取りをやめました。ランクの記録は小さいため、ジョブ以外の何かがこのストアに書き込んでいます。すべてのランクは調べていません。</translation>
    </message>
    <message>
        <source>Check which program uses this store and port; give the job a store of its own.</source>
        <translation>このストアとポートを使っているプログラムを確認し、ジョブには専用のストアを使ってください。</translation>
    </message>
    <message>
        <source>The store path %1 does not answer: looking it up took longer than %2 ms, as on a network share whose server is down or unreachable. Ranks would hang on it.</source>
        <translation>ストアのパス %1 が応答しません: 確認に %2 ms 以上かかりました。サーバーが止まっているか到達できないネットワーク共有のようです。ランクはここで止まってしまいます。</translation>
    </message>
    <message>
        <source>Check the share (its server, the network, the mount); or use a store path on a disk that answers.</source>
        <translation>共有 (サーバー、ネットワーク、マウント) を確認するか、応答するディスク上のストアパスを使ってください。</translation>
    </message>
    <message>
        <source>Renamed the stale store file %1 to %2 (nothing was deleted).</source>
        <translation>古いストアファイル %1 の名前を %2 に変更しました (何も削除していません)。</translation>
    </message>
    <message>
        <source>Nothing to rename: %1 is not an existing file.</source>
        <translation>名前を変更するものはありません: %1 は既存のファイルではありません。</translation>
    </message>
    <message>
        <source>Refused: %1 is a symbolic link; the fix never follows links, so neither the link nor its target is changed.</source>
        <translation>拒否しました: %1 はシンボリックリンクです。この修正はリンクをたどらないため、リンクもリンク先も変更しません。</translation>
    </message>
    <message>
        <source>Refused: %1, so it is left as it is.</source>
        <translation>拒否しました: %1 のため、そのままにします。</translation>
    </message>
    <message>
        <source>Refused: the store is in use (%1). End that run first.</source>
        <translation>拒否しました: ストアは使用中です (%1)。先にその実行を終了してください。</translation>
    </message>
    <message>
        <source>Refused: this is node %1: ranks on another node that shares this folder may still be waiting on the store, and this node cannot see them; only node 0 (or --force) calls it stale.</source>
        <translation>拒否しました: ここはノード %1 です。このフォルダーを共有する別のノードのランクがまだストアで待機しているかもしれず、このノードからは見えません。古いと判断するのはノード 0 (または --force) だけです。</translation>
    </message>
    <message>
        <source>Refused: %1 of %2 ranks arrived, last write %3 s ago; ranks may wait up to %4: not stale yet.</source>
        <translation>拒否しました: %2 ランク中 %1 ランクが到着し、最終書き込みは %3 秒前です。ランクは最大 %4 待機することがあるため、まだ古くありません。</translation>
    </message>
    <message>
        <source>Refused: %1 rank(s) arrived, last write %2 s ago, and the world size is unknown; ranks may wait up to %3: not stale yet.</source>
        <translation>拒否しました: %1 ランクが到着し、最終書き込みは %2 秒前で、ワールドサイズは不明です。ランクは最大 %3 待機することがあるため、まだ古くありません。</translation>
    </message>
    <message>
        <source>Could not rename %1: %2</source>
        <translation>%1 の名前を変更できませんでした: %2</translation>
    </message>
    <message>
        <source>another process</source>
        <translation>別のプロセス</translation>
    </message>
    <message>
        <source>Not all ranks probed: only ranks %1 were looked up one by one.</source>
        <translation>すべてのランクを調べたわけではありません: 1 つずつ確認したのはランク %1 だけです。</translation>
    </message>
    <message>
        <source>Rank 0 is counted without keys of its own: it hosts the TCPStore and waits in the store's constructor until every rank has connected.</source>
        <translation>ランク 0 は自身のキーなしで数えられています: TCPStore をホストしており、すべてのランクが接続するまでストアのコンストラクターで待っています。</translation>
    </message>
    <message>
        <source>Node %1 (%2): its launcher is connected to node 0, and its ranks %3 have reached the store.</source>
        <translation>ノード %1 (%2): ランチャーはノード 0 に接続済みで、ランク %3 はストアに到達しています。</translation>
    </message>
    <message>
        <source>Node %1 (%2): its launcher is connected to node 0 and reports: %3.</source>
        <translation>ノード %1 (%2): ランチャーはノード 0 に接続済みで、次のように報告しています: %3。</translation>
    </message>
    <message>
        <source>Node %1 (%2): its launcher is connected, but its ranks %3 have not reached the store; its launcher reports: %4.</source>
        <translation>ノード %1 (%2): ランチャーは接続済みですが、ランク %3 がストアに到達していません。ランチャーの報告: %4。</translation>
    </message>
    <message>
        <source>Read those ranks' logs on the Run page (node %1 forwards them): a rank that failed, or one still loading its data or model, holds every other rank up.</source>
        <translation>実行ページでそれらのランクのログを確認してください (ノード %1 が転送します)。失敗したランクや、データやモデルをまだ読み込んでいるランクが、他のすべてのランクを待たせています。</translation>
    </message>
    <message>
        <source>Node %1 (%2): no word from its launcher for %3 s, though it was connected.</source>
        <translation>ノード %1 (%2): 接続していたランチャーから %3 秒間応答がありません。</translation>
    </message>
    <message>
        <source>Check that node %1 still runs (not suspended, not swapping, not out of memory) and still reaches node 0's port %4.</source>
        <translation>ノード %1 が動作している (サスペンド、スワップ、メモリ不足でない) ことと、ノード 0 のポート %4 に届くことを確認してください。</translation>
    </message>
    <message>
        <source>Node %1 (%2): its launcher lost its link to node 0 (%3); its ranks %4 can no longer be seen from here.</source>
        <translation>ノード %1 (%2): ランチャーとノード 0 のリンクが切れました (%3)。ランク %4 はここから見えなくなりました。</translation>
    </message>
    <message>
        <source>Check node %1: is its launcher still running, is the machine up, and does the network between the nodes work? Then start the job again on every node.</source>
        <translation>ノード %1 を確認してください: ランチャーは動作しているか、マシンは起動しているか、ノード間のネットワークは正常か。その後、すべてのノードでジョブを再開してください。</translation>
    </message>
    <message>
        <source>Node %1: its ranks %2 reached the store, but no DDP Desk launcher connected to node 0 for them: another launcher started them (torchrun, mpirun, a script), or theirs cannot reach node 0's port %3. What is known of them here comes from the store only.</source>
        <translation>ノード %1: ランク %2 はストアに到達しましたが、それらの DDP Desk ランチャーはノード 0 に接続していません: 別のランチャー (torchrun、mpirun、スクリプト) が起動したか、ランチャーがノード 0 のポート %3 に届きません。ここで分かることはストアからの情報だけです。</translation>
    </message>
    <message>
        <source>To watch them here, start node %1 with ddpdesk-cli (the command node 0 printed), or allow TCP port %3 on node 0 from that node.</source>
        <translation>ここで見るには、ノード %1 を ddpdesk-cli (ノード 0 が表示したコマンド) で起動するか、そのノードからノード 0 の TCP ポート %3 を許可してください。</translation>
    </message>
    <message>
        <source>Node %1: neither its launcher nor its ranks %2 have reached node 0.</source>
        <translation>ノード %1: ランチャーもランク %2 もノード 0 に到達していません。</translation>
    </message>
    <message>
        <source>Start node %1 with the command node 0 printed, and check that it reaches node 0 on the store's port %4 and the node link's port %3.</source>
        <translation>ノード 0 が表示したコマンドでノード %1 を起動し、ノード 0 のストアのポート %4 とノードリンクのポート %3 に届くことを確認してください。</translation>
    </message>
    <message>
        <source>Check that node %1 still runs (not suspended, not swapping, not out of memory) and still reaches the shared folder %4 the store and the node link are in.</source>
        <translation>ノード %1 がまだ動いていること (一時停止、スワップ、メモリ不足になっていないこと) と、ストアとノードリンクがある共有フォルダー %4 にまだ届くことを確認してください。</translation>
    </message>
    <message>
        <source>Node %1: its ranks %2 reached the store, but no DDP Desk launcher of that node writes to the node link's folder in %3: another launcher started them (torchrun, mpirun, a script). What is known of them here comes from the store only.</source>
        <translation>ノード %1: ランク %2 はストアに到達しましたが、そのノードの DDP Desk ランチャーは %3 のノードリンクのフォルダーに書き込んでいません: 別のランチャー (torchrun、mpirun、スクリプト) が起動したものです。ここで分かることはストアからの情報だけです。</translation>
    </message>
    <message>
        <source>To watch them here, start node %1 with ddpdesk-cli (the command node 0 printed).</source>
        <translation>ここで見るには、ノード %1 を ddpdesk-cli (ノード 0 が表示したコマンド) で起動してください。</translation>
    </message>
    <message>
        <source>Start node %1 with the command node 0 printed, and check that it sees the shared folder %3 the store is in (the same share, reachable from that node).</source>
        <translation>ノード 0 が表示したコマンドでノード %1 を起動し、ストアがある共有フォルダー %3 がそのノードから見えること (同じ共有に届くこと) を確認してください。</translation>
    </message>
    <message>
        <source>Node %1 (%2): its run ended (%3).</source>
        <translation>ノード %1 (%2): 実行が終了しました (%3)。</translation>
    </message>
</context>
<context>
    <name>ddpdesk::ui::HistoryPanel</name>
    <message>
        <source>Cannot open this folder in History: %1</source>
        <translation>このフォルダーは履歴で開けません: %1</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>計測なし</translation>
    </message>
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
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Reading the recording...</source>
        <translation>記録を読み込んでいます...</translation>
    </message>
    <message numerus="yes">
        <source>Reading %n recording(s)...</source>
        <translation><numerusform>%n 件の記録を読み込んでいます...</numerusform></translation>
    </message>
</context>
<context>
    <name>ddpdesk::ui::MainWindow</name>
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
        <source>Cannot reopen run</source>
        <translation>実行を開き直せません</translation>
    </message>
</context>
<context>
    <name>ddpdesk::ui::WindowMenus</name>
    <message>
        <source>Open &amp;run...</source>
        <translation>実行結果を開く(&amp;R)...</translation>
    </message>
    <message>
        <source>Open run folder</source>
        <translation>実行結果のフォルダーを開く</translation>
    </message>
    <message>
        <source>Shows a run folder kept anywhere, or a sweep's sizes, on the History page</source>
        <translation>どこに置いた実行フォルダーでも、スイープの各サイズでも、履歴ページに表示します</translation>
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
        <source>Keep &amp;workers ready</source>
        <translation>ワーカーを待機させておく(&amp;W)</translation>
    </message>
    <message>
        <source>Starts the next run's worker processes ahead, with LibTorch loaded, so Start begins at once; each waiting worker holds some memory.</source>
        <translation>次の実行のワーカープロセスを LibTorch を読み込んだ状態で先に起動しておき、開始をすぐに始められるようにします。待機中のワーカーはそれぞれメモリを使います。</translation>
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
    <message>
        <source>Runs folder</source>
        <translation>実行結果フォルダー</translation>
    </message>
</context>
<context>
    <name>ddpdesk::ui::RunControl</name>
    <message>
        <source>The run was not started: the doctor found a problem.</source>
        <translation>実行は開始されませんでした: 診断で問題が見つかりました。</translation>
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
        <source>the application closed</source>
        <translation>アプリケーションが終了しました</translation>
    </message>
    <message>
        <source>stopped by the user</source>
        <translation>ユーザーが停止しました</translation>
    </message>
    <message>
        <source>Still opening the previous run; try %1 again in a moment.</source>
        <translation>前の実行をまだ開いています。少し待ってから %1 をもう一度開いてください。</translation>
    </message>
    <message>
        <source>Opening %1...</source>
        <translation>%1 を開いています...</translation>
    </message>
</context>
<context>
    <name>ddpdesk::ui::RunPanel</name>
    <message>
        <source>checkpoint saves: %1, %2 s in all (not counted as training time)</source>
        <translation>チェックポイント保存: %1 回、合計 %2 秒 (学習時間に数えません)</translation>
    </message>
    <message>
        <source>evaluating</source>
        <translation>評価中</translation>
    </message>
    <message>
        <source>validation passes: %1, %2 s in all (not counted as training time nor training samples)</source>
        <translation>検証パス: %1 回、合計 %2 秒 (学習時間にも学習サンプルにも数えません)</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 バイト</translation>
    </message>
    <message>
        <source>%1 group</source>
        <translation>グループ %1</translation>
    </message>
    <message>
        <source> at %1</source>
        <translation>、場所 %1</translation>
    </message>
    <message>
        <source>, completed in %1 ms</source>
        <translation>、%1 ms で完了</translation>
    </message>
    <message>
        <source>, started %1 s ago, not completed</source>
        <translation>、%1 秒前に開始、未完了</translation>
    </message>
    <message>
        <source>, not completed</source>
        <translation>、未完了</translation>
    </message>
    <message>
        <source>Last collectives of rank %1 (newest last):</source>
        <translation>ランク %1 の直近のコレクティブ (新しいものが最後):</translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 ランク</translation>
    </message>
    <message>
        <source>%1: n/a, Windows (WDDM) attributes no memory to a process</source>
        <translation>%1: n/a。Windows (WDDM) はプロセスごとのメモリを示しません</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>ノード</translation>
    </message>
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
        <source>%1, world size %2: step %3, %4 samples/s, mean loss %5, %6 elapsed</source>
        <translation>%1、ワールドサイズ %2: ステップ %3、%4 サンプル/秒、平均損失 %5、経過 %6</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>実行中</translation>
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
<message><source>Show stac&amp;ks</source><translation>スタックを表示(&amp;K)</translation></message><message><source>Where does it hang? Every script rank writes the Python stacks of all its threads into the log; every ddpdesk-worker rank writes what it waits in (collective, bucket, for how long)</source><translation>どこで止まっているか? スクリプトの各ランクは全スレッドの Python スタックをログに書き出し、ddpdesk-worker の各ランクは何を待っているか (集団通信、バケット、待機時間) を書き出します</translation></message><message><source>asked from the Run page</source><translation>実行ページから要求</translation></message><message><source>&lt;b&gt;The run completed, but rank %1 needs a look.&lt;/b&gt; %2</source><translation>&lt;b&gt;実行は完了しましたが、ランク %1 を確認してください。&lt;/b&gt; %2</translation></message><message><source>Seen: %1</source><translation>検出: %1</translation></message>
    <message>
        <source>n/a</source>
        <translation>計測なし</translation>
    </message>
    <message>
        <source>&lt;b&gt;One rank is slower than the others.&lt;/b&gt;</source>
        <translation>&lt;b&gt;1 つのランクが他より遅れています。&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;The run is held up.&lt;/b&gt;</source>
        <translation>&lt;b&gt;実行が停滞しています。&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Own work</source>
        <translation>自身の処理</translation>
    </message>
    <message>
        <source>Collective #</source>
        <translation>集団通信 #</translation>
    </message>
    <message>
        <source>Own work per step (step time less the time it waited for the others): %1 ms, %2x the fastest rank's, %3x its own best</source>
        <translation>1 ステップあたりの自身の処理時間 (ステップ時間から他のランクを待った時間を引いたもの): %1 ms、最速のランクの %2 倍、自身の最良値の %3 倍</translation>
    </message>
    <message>
        <source>Not measured yet: needs two ranks or more reporting their step and comm wait times</source>
        <translation>まだ測定できません: ステップ時間と通信待ち時間を報告するランクが 2 つ以上必要です</translation>
    </message>
    <message>
        <source>#%1 (waiting)</source>
        <translation>#%1 (待機中)</translation>
    </message>
    <message>
        <source>this launcher</source>
        <translation>このランチャー</translation>
    </message>
    <message>
        <source>waiting for its launcher</source>
        <translation>ランチャーを待機中</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>接続済み</translation>
    </message>
    <message>
        <source>no contact</source>
        <translation>応答なし</translation>
    </message>
    <message>
        <source>no contact for %1 s</source>
        <translation>%1 秒間応答なし</translation>
    </message>
    <message>
        <source>ended: %1</source>
        <translation>終了: %1</translation>
    </message>
    <message>
        <source>lost: %1</source>
        <translation>切断: %1</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>ホスト</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>ランク</translation>
    </message>
    <message>
        <source>no DDP Desk launcher; ranks %1 seen in the store</source>
        <translation>DDP Desk のランチャーなし。ランク %1 をストアで確認</translation>
    </message>
    <message>
        <source>in the store (another launcher)</source>
        <translation>ストアにあり (別のランチャー)</translation>
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
        <source>Run secret:</source>
        <translation>実行シークレット:</translation>
    </message>
    <message>
        <source>Every node's ranks on node 0 (node link)</source>
        <translation>すべてのノードのランクをノード 0 に表示 (ノードリンク)</translation>
    </message>
    <message>
        <source>The other nodes' launchers send their ranks' progress to node 0's, which shows, records and stops them all: over node 0's port next to a TCPStore (the store's port + 1), or through a folder next to a FileStore on a shared folder. Only launchers that know the run secret are heard.</source>
        <translation>他のノードのランチャーがランクの進み具合をノード 0 のランチャーに送り、ノード 0 がすべてを表示・記録・停止します: TCPStore ではその隣のノード 0 のポート (ストアのポート + 1) で、共有フォルダー上の FileStore ではその隣のフォルダーを通します。実行シークレットを知っているランチャーだけを受け付けます。</translation>
    </message>
    <message>
        <source>Working folder:</source>
        <translation>作業フォルダー:</translation>
    </message>
    <message>
        <source>the script's folder</source>
        <translation>スクリプトのフォルダー</translation>
    </message>
    <message>
        <source>Where the script's ranks run, as torchrun runs them where it was started: files the script opens by relative path are read and written here.</source>
        <translation>スクリプトのランクが実行されるフォルダーです (torchrun が起動した場所でランクを実行するのと同じです)。スクリプトが相対パスで開くファイルはここで読み書きされます。</translation>
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
<message><source>Accumulate steps:</source><translation>勾配累積:</translation></message><message><source>Gradient compression:</source><translation>勾配圧縮:</translation></message><message><source>none (fp32)</source><translation>なし (fp32)</translation></message><message><source>fp16 (half the bytes)</source><translation>fp16 (通信量半分)</translation></message><message><source>bf16 (half the bytes)</source><translation>bf16 (通信量半分)</translation></message><message><source>Gradient buckets travel in 16 bits and are cast back after the exchange, as PyTorch's compression hooks do: half the traffic between ranks, every rank still identical.</source><translation>勾配バケットを 16 ビットで送り、交換後に元の精度へ戻します (PyTorch の圧縮フックと同じ)。ランク間の通信量は半分になり、すべてのランクの結果は同一のままです。</translation></message><message><source>off</source><translation>オフ</translation></message><message><source>Micro-batches of the batch size per optimizer step: gradients add up and are exchanged once per step (DDP's no_sync), so a step sees this many times the batch at the memory cost of one.</source><translation>オプティマイザーの 1 ステップあたりのマイクロバッチ数です。勾配を足し合わせてステップごとに 1 回だけ交換する (DDP の no_sync) ため、1 バッチ分のメモリでこの倍数のバッチを学習できます。</translation></message><message><source>Precision:</source><translation>精度:</translation></message><message><source>fp32</source><translation>fp32</translation></message><message><source>bf16 mixed precision</source><translation>bf16 混合精度</translation></message><message><source>fp16 mixed precision (CUDA only)</source><translation>fp16 混合精度 (CUDA のみ)</translation></message><message><source>Autocast for the forward pass and the loss, as torch.autocast does; weights and optimizer state stay fp32. fp16 needs a GPU and adds dynamic loss scaling; bf16 also runs on the CPU.</source><translation>torch.autocast と同じく、順伝播と損失を autocast で計算します。重みとオプティマイザーの状態は fp32 のままです。fp16 は GPU が必要で、動的な損失スケーリングを行います。bf16 は CPU でも動きます。</translation></message><message><source>Write TensorBoard files</source><translation>TensorBoard ファイルを書き出す</translation></message><message><source>Scalars for TensorBoard in the run folder's tensorboard/ subfolder; point TensorBoard at the runs folder to compare runs.</source><translation>実行フォルダーの tensorboard/ サブフォルダーに TensorBoard 用のスカラーを書き出します。実行結果フォルダーを TensorBoard に指定すると実行どうしを比較できます。</translation></message><message><source>node 0's run secret (in the run-secret file node 0's log names)</source><translation>ノード 0 の実行シークレット (ノード 0 のログが示す run-secret ファイルの中身)</translation></message><message><source>Node 0 makes a secret for each multi-node run, saves it in a file only you can read and shows the command for the other nodes in its log. Ranks that cannot prove they know it are refused.</source><translation>ノード 0 は複数ノードの実行ごとにシークレットを作り、あなただけが読めるファイルに保存して、他のノード用のコマンドをログに表示します。シークレットを知っていることを証明できないランクは拒否されます。</translation></message></context>
<context><name>ddpdesk::launch::CommandFormat</name><message><source>contains a line break, which a cmd.exe command line (--format hpcpack) cannot carry</source><translation>改行を含んでいます。cmd.exe のコマンドライン (--format hpcpack) では改行を渡せません</translation></message></context><context><name>ddpdesk::launch::TensorBoardLog</name><message><source>%1 is a link or a file, not a folder: no TensorBoard files are written (move it away, or run with --no-tensorboard)</source><translation>%1 はフォルダーではなくリンクかファイルです: TensorBoard ファイルは書き出しません (移動するか、--no-tensorboard を付けて実行してください)</translation></message><message><source>cannot create %1: no TensorBoard files are written</source><translation>%1 を作成できません: TensorBoard ファイルは書き出しません</translation></message></context><context><name>ddpdesk::launch::TensorBoardWriter</name><message><source>cannot create %1: %2</source><translation>%1 を作成できません: %2</translation></message><message><source>no free event file name in %1</source><translation>%1 に空いているイベントファイル名がありません</translation></message><message><source>cannot write %1: %2</source><translation>%1 に書き込めません: %2</translation></message></context><context><name>ddpdesk::launch::RunFolder</name><message><source>cannot create folder '%1' (check the path and permissions)</source><translation>フォルダー '%1' を作成できません (パスと権限を確認してください)</translation></message><message><source>'%1' is not a folder</source><translation>'%1' はフォルダーではありません</translation></message></context><context><name>ddpdesk::launch::SecretFile</name><message><source>'%1' is already there and DDP Desk did not write it</source><translation>'%1' は既に存在し、DDP Desk が書いたものではありません</translation></message><message><source>cannot create '%1': %2</source><translation>'%1' を作成できません: %2</translation></message></context><context><name>ddpdesk::launch::SweepTrust</name><message><source>samples/s could not be measured, so this size is not compared: %1</source><translation>samples/s を測定できなかったため、このサイズは比較しません: %1</translation></message><message><source>no rank reported its samples</source><translation>サンプル数を報告したランクがありません</translation></message><message><source>too short to measure a steady rate: its samples/s includes each rank's first step (allocation, the first gradient exchange); give the sweep more steps</source><translation>安定した速度を測るには短すぎます: samples/s に各ランクの最初のステップ (メモリ確保、最初の勾配交換) が含まれています。スイープのステップ数を増やしてください</translation></message><message><source>too short to measure a steady rate: %1 step(s), fewer than %2; give the sweep more steps</source><translation>安定した速度を測るには短すぎます: %1 ステップで、%2 未満です。スイープのステップ数を増やしてください</translation></message><message><source>speedup %1x with %2x the workers is more than they can give: one of the two rates compared is off (a run too short to be steady, or other work on this machine while one of the sizes ran); run the sweep again with more steps on an otherwise idle machine</source><translation>ワーカー %2 倍で速度向上 %1 倍は、ワーカーが出せる以上です: 比べた 2 つの速度のどちらかがずれています (安定するには短すぎる実行か、いずれかのサイズの実行中にこのマシンで別の処理が動いていた)。ほかに何も動いていないマシンで、ステップ数を増やしてスイープをやり直してください</translation></message><message><source>efficiency %1 % and no cause measured: this size's figures are not steady enough to look for one (the notes above)</source><translation>効率 %1 % で原因は測定されていません: このサイズの数値は原因を探せるほど安定していません (上の注記)</translation></message><message><source>efficiency %1 % and no cause could be measured: no rank reported how long it waited on the gradient exchange (a script without a DDP model, or ranks that never stepped)</source><translation>効率 %1 % で原因を測定できませんでした: 勾配交換の待ち時間を報告したランクがありません (DDP モデルのないスクリプトか、一度もステップしなかったランク)</translation></message><message><source>efficiency %1 % and none of the causes DDP Desk looks for (the gradient exchange, data loading, threads against cores, a straggler, the network interface) reached its bar: the ranks waited %2 % of their step on the exchange (a cause from %3 %); what is left is outside those: the start-up of a short run, or other work on this machine</source><translation>効率 %1 % で、DDP Desk が調べる原因 (勾配交換、データ読み込み、コア数に対するスレッド数、ストラグラー、ネットワークインターフェース) はどれも基準に達しませんでした: ランクはステップの %2 % を交換の待ちに費やしました (%3 % から原因とみなします)。残りはそれ以外にあります: 短い実行の起動時間か、このマシンでの別の処理</translation></message><message><source>other work on this machine kept %1 of its %2 cores busy while this size ran: its samples/s is below what the machine gives, and the speedups against it are off; run the sweep again on an otherwise idle machine</source><translation>このサイズの実行中、このマシンの別の処理が %2 コア中 %1 コアを使っていました: samples/s はこのマシン本来の値より低く、それとの速度向上の比較もずれています。ほかに何も動いていないマシンでスイープをやり直してください</translation></message></context></TS>
