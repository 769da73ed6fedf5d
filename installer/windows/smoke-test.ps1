<#
.SYNOPSIS
  Manual smoke test of DDP Desk's Windows-only code paths, for a person with a real Windows machine.

.DESCRIPTION
  The *_win.cpp sources are compiled with mingw-w64 and partly run under wine on Linux, but wine cannot show what
  matters most: the owner PID of a socket (GetExtendedTcpTable under wine reports 0), Restart Manager naming a
  file's holder, real Job Objects closing with a killed launcher in a real console, a GUI program attaching to
  the console it was started from, and NVML loaded from a real driver. This script checks those after a build
  (build\bin, build\bin\Release) or in an install folder (...\DDP Desk\bin).

  Each check prints PASS, FAIL or SKIP with what it checked; the exit code is 1 when anything failed. Every
  command's output stays in the scratch folder under %TEMP% (kept when something failed, or with -KeepScratch).
  Report the results on issue 18 and in the "run on real Windows" column of docs/windows.md.

.EXAMPLE
  powershell -ExecutionPolicy Bypass -File .\installer\windows\smoke-test.ps1 -BinDir .\build\bin
#>
param(
  [string]$BinDir = ".\build\bin",
  [switch]$KeepScratch
)
# Not "Stop": Windows PowerShell turns a native program's stderr into errors, and the checks decide for themselves.
$ErrorActionPreference = "Continue"
if ($PSVersionTable.PSVersion.Major -ge 6 -and -not $IsWindows) { Write-Host "Windows only."; exit 2 }

$bin = @($BinDir, (Join-Path $BinDir "Release"), (Join-Path $BinDir "bin")) |
  Where-Object { Test-Path (Join-Path $_ "ddpdesk-cli.exe") } | Select-Object -First 1
if (-not $bin) { Write-Host "ddpdesk-cli.exe not found in $BinDir, $BinDir\Release or $BinDir\bin"; exit 2 }
$bin = (Resolve-Path $bin).Path
$cli = Join-Path $bin "ddpdesk-cli.exe"
$gui = Join-Path $bin "ddpdesk.exe"
$scratch = Join-Path $env:TEMP ("ddpdesk-smoke-" + (Get-Date -Format "yyyyMMdd-HHmmss"))
New-Item -ItemType Directory -Path $scratch | Out-Null
$os = Get-CimInstance Win32_OperatingSystem
Write-Host "DDP Desk smoke test: $bin`n$($os.Caption) build $($os.BuildNumber), PowerShell $($PSVersionTable.PSVersion), PID $PID`nscratch: $scratch`n"

$results = New-Object System.Collections.ArrayList
function Report([string]$id, [string]$status, [string]$what, [string]$detail = "") {
  $color = @{ PASS = "Green"; FAIL = "Red"; SKIP = "Yellow" }[$status]
  Write-Host ("[{0,-3}] {1}  {2}" -f $id, $status, $what) -ForegroundColor $color
  if ($detail) { Write-Host "       $($detail.Trim() -replace "`n", "`n       ")" }
  [void]$results.Add([pscustomobject]@{ Id = $id; Status = $status; What = $what })
}

# CommandLineToArgvW quoting: Start-Process takes one string, and Windows PowerShell would split "with space".
function Quote-Arg([string]$a) {
  if ($a -and $a -notmatch '[\s"]') { return $a }
  '"' + (($a -replace '(\\*)"', '$1$1\"') -replace '(\\+)$', '$1$1') + '"'
}
# Start-Process rather than the call operator: stdout/stderr land in files for the report, and no -Wait, whose
# own job object around the child could hide what DDP Desk's Job Object does.
function Start-Tool([string]$tag, [string]$exe, [string[]]$argv) {
  $line = ($argv | ForEach-Object { Quote-Arg $_ }) -join " "
  Write-Host "       > $(Split-Path $exe -Leaf) $line" -ForegroundColor DarkGray
  $p = Start-Process -FilePath $exe -ArgumentList $line -NoNewWindow -PassThru `
    -RedirectStandardOutput (Join-Path $scratch "$tag.out") -RedirectStandardError (Join-Path $scratch "$tag.err")
  $null = $p.Handle # without it ExitCode can read empty after exit
  $p
}
function Invoke-Tool([string]$tag, [string]$exe, [string[]]$argv, [int]$timeoutS = 300) {
  $p = Start-Tool $tag $exe $argv
  $code = "timeout"
  if ($p.WaitForExit($timeoutS * 1000)) { $code = $p.ExitCode } else { Stop-Process -Id $p.Id -Force }
  [pscustomobject]@{ Code = $code; Out = [string](Read-Shared (Join-Path $scratch "$tag.out"))
                     Err = [string](Read-Shared (Join-Path $scratch "$tag.err")) }
}
# Shared read: the launcher is still appending to metrics.jsonl while the kill test polls it.
function Read-Shared([string]$path) {
  if (-not (Test-Path -LiteralPath $path)) { return "" }
  $fs = [IO.File]::Open($path, "Open", "Read", "ReadWrite, Delete")
  try { (New-Object IO.StreamReader($fs, [Text.Encoding]::UTF8)).ReadToEnd() } finally { $fs.Dispose() }
}
function Get-Finding($r, [string]$code) {
  try { @(($r.Out | ConvertFrom-Json -ErrorAction Stop).findings | Where-Object { $_.code -eq $code })[0] } catch { $null }
}
function Get-Codes($r) {
  try { (@(($r.Out | ConvertFrom-Json -ErrorAction Stop).findings) | ForEach-Object { $_.code }) -join ", " }
  catch { "no JSON (exit $($r.Code)): $($r.Err)" }
}
function Test-Run([string]$out, $r, [int]$steps) {
  $sumPath = Join-Path $out "summary.json"
  if ($r.Code -ne 0 -or -not (Test-Path -LiteralPath $sumPath)) { return "exit $($r.Code), summary.json missing`n$($r.Err)" }
  $s = Get-Content -Raw -Encoding UTF8 -LiteralPath $sumPath | ConvertFrom-Json
  if ($s.status -ne "ok" -or $s.steps -ne $steps) { return "summary: status $($s.status), steps $($s.steps)" }
  ""
}

# --- 1. Console: CLI11 programs, and the GUI (WIN32 subsystem) reaching the console it was started from.
foreach ($exe in @("ddpdesk-cli", "ddpdesk-worker")) {
  $id = if ($exe -eq "ddpdesk-cli") { "1a" } else { "1b" }
  $r = Invoke-Tool "1-$exe-version" (Join-Path $bin "$exe.exe") @("--version") 60
  if ($r.Code -eq 0 -and $r.Out -match "^$exe \d") { Report $id PASS "$exe --version" $r.Out }
  else { Report $id FAIL "$exe --version (a DLL missing beside it?)" "exit $($r.Code)`n$($r.Out)$($r.Err)" }
}
$r = Invoke-Tool "1-cli-help" $cli @("--help") 60
if ($r.Code -eq 0 -and $r.Out -match "Subcommands:") { Report "1c" PASS "ddpdesk-cli --help" }
else { Report "1c" FAIL "ddpdesk-cli --help" "exit $($r.Code)`n$($r.Err)" }
if (-not (Test-Path $gui)) { Report "1d" SKIP "ddpdesk.exe not built (DDPDESK_WITH_QT=OFF?)" }
else {
  # Installers and CI capture `ddpdesk --version`; console_win.cpp must not send it past a redirected stdout.
  $r = Invoke-Tool "1-gui-version" $gui @("--version") 60
  if ($r.Out -match "^ddpdesk \d") { Report "1d" PASS "ddpdesk --version with stdout redirected to a file" }
  else { Report "1d" FAIL "ddpdesk --version with stdout redirected: the file is empty" "exit $($r.Code); if the version appeared on the console instead, AttachConsole + freopen(CONOUT`$) overrode the redirect" }
  # No redirect: the help text must appear in this console; a message box instead would block, hence the timeout.
  if ($Host.Name -match "ISE") { Report "1e" SKIP "ddpdesk --help: the ISE has no console to attach to; run this from powershell.exe or pwsh.exe" }
  else {
    Write-Host "       > ddpdesk.exe --help   (its text should appear right below)" -ForegroundColor DarkGray
    $p = Start-Process -FilePath $gui -ArgumentList "--help" -NoNewWindow -PassThru
    if (-not $p.WaitForExit(20000)) { Stop-Process -Id $p.Id -Force; Report "1e" FAIL "ddpdesk --help still running after 20 s (a message box: no console attached?)" }
    else {
      try {
        $ui = $Host.UI.RawUI; $y = $ui.CursorPosition.Y
        $rect = New-Object Management.Automation.Host.Rectangle 0, ([Math]::Max(0, $y - 40)), ($ui.BufferSize.Width - 1), $y
        $tail = -join @($ui.GetBufferContents($rect) | ForEach-Object { $_.Character })
      } catch { $tail = $null }
      if ($null -eq $tail) { Report "1e" SKIP "ddpdesk --help: this host's console buffer cannot be read; check by eye that the help text is above" }
      elseif ($tail -match "point-and-click") { Report "1e" PASS "ddpdesk --help printed into this console (AttachConsole)" }
      else { Report "1e" FAIL "ddpdesk --help printed nothing into this console" "exit $($p.ExitCode)" }
    }
  }
}

# --- 2. A 2-rank CPU run on the default FileStore under a path with a space; shm gradients (shared_memory_win),
# then --resume, which replaces checkpoint.pt in place (MoveFileExW in platform_win.cpp).
$out2 = Join-Path $scratch "with space\run"
$r = Invoke-Tool "2-run" $cli @("run", "--nproc", "2", "--steps", "20", "--grad-transport", "shm", "--out", $out2)
$why = Test-Run $out2 $r 20
if (-not $why -and (Test-Path -LiteralPath (Join-Path $out2 "store\filestore"))) { Start-Sleep 3 } # a scanner's handle delays deletion
if (-not $why -and (Test-Path -LiteralPath (Join-Path $out2 "store\filestore"))) { $why = "store\filestore was left behind" }
$rss = [regex]::Matches((Read-Shared (Join-Path $out2 "metrics.jsonl")), '"rss_bytes":(\d+)') | Where-Object { [int64]$_.Groups[1].Value -gt 0 }
if (-not $why -and -not $rss) { $why = "no proc event with rss_bytes > 0 in metrics.jsonl (process_stats_win)" }
if ($why) { Report "2a" FAIL "2-rank CPU run, FileStore under '$out2'" $why } else { Report "2a" PASS "2-rank CPU run (shm), FileStore under a path with a space; store file gone, worker RSS seen" }
$ckpt = Join-Path $out2 "checkpoint.pt"
$before = if (Test-Path -LiteralPath $ckpt) { (Get-Item -LiteralPath $ckpt).LastWriteTimeUtc } else { [datetime]::MaxValue }
$r = Invoke-Tool "2-resume" $cli @("run", "--nproc", "2", "--steps", "40", "--resume", "--out", $out2)
$why = Test-Run $out2 $r 40
if (-not $why -and (Get-Item -LiteralPath $ckpt).LastWriteTimeUtc -le $before) { $why = "checkpoint.pt was not rewritten" }
if ($why) { Report "2b" FAIL "--resume to 40 steps in the same folder" $why } else { Report "2b" PASS "--resume to 40 steps (checkpoint.pt replaced)" }

# --- 3. The same over SMB (\\localhost\C$\...), Gloo gradients this time.
$unc = if ($scratch -match '^([A-Za-z]):\\(.*)$') { "\\localhost\$($Matches[1])`$\$($Matches[2])" } else { $null }
if (-not $unc -or -not (Test-Path -LiteralPath $unc)) { Report "3" SKIP "UNC path: the administrative share $unc is not reachable (Server service off, or no admin rights)" }
else {
  $out3 = Join-Path $unc "unc run"
  $r = Invoke-Tool "3-unc" $cli @("run", "--nproc", "2", "--steps", "20", "--grad-transport", "gloo", "--out", $out3)
  $why = Test-Run $out3 $r 20
  if ($why) { Report "3" FAIL "2-rank run with --out $out3" $why } else { Report "3" PASS "2-rank run (Gloo), FileStore on $out3" }
}

# --- 4. Hard-killing the launcher must take its workers along (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE): no signal
# handler runs, only the kernel closing the launcher's handles.
$out4 = Join-Path $scratch "kill run"
$t0 = Get-Date
$p = Start-Tool "4-kill" $cli @("run", "--nproc", "2", "--steps", "1000000", "--out", $out4)
$metrics = Join-Path $out4 "metrics.jsonl"
$deadline = (Get-Date).AddSeconds(120)
while ((Get-Date) -lt $deadline -and -not $p.HasExited -and (Read-Shared $metrics) -notmatch '"event":"step"') { Start-Sleep -Milliseconds 500 }
$rankPids = @((Read-Shared $metrics) -split "`n" | ForEach-Object { if ($_ -match '"event":"rank_start"' -and $_ -match '"pid":(\d+)') { [int]$Matches[1] } })
if ($p.HasExited -or $rankPids.Count -lt 2) {
  if (-not $p.HasExited) { Stop-Process -Id $p.Id -Force }
  Report "4" FAIL "long run never reached training within 120 s" (Read-Shared (Join-Path $scratch "4-kill.err"))
} else {
  Stop-Process -Id $p.Id -Force
  $until = (Get-Date).AddSeconds(10)
  do {
    Start-Sleep -Milliseconds 250
    $left = @(Get-Process -Name "ddpdesk-worker" -ErrorAction SilentlyContinue |
      Where-Object { ($rankPids -contains $_.Id) -or $(try { $_.StartTime -ge $t0 } catch { $false }) })
  } while ($left.Count -gt 0 -and (Get-Date) -lt $until)
  if ($left.Count -eq 0) { Report "4" PASS "Stop-Process -Force on the launcher ended ranks $($rankPids -join ', ') within 10 s" }
  else { Report "4" FAIL "workers outlived the killed launcher: $(($left | ForEach-Object { $_.Id }) -join ', ')"; $left | Stop-Process -Force }

  # The killed run left its FileStore behind: the doctor's fix must rename it aside (MoveFileExW, rename_aside_win).
  $store4 = Join-Path $out4 "store\filestore"
  Start-Sleep -Milliseconds 1500 # older than the 1 s "written just now" window
  $r = Invoke-Tool "4-rename" $cli @("doctor", "--store", "file:$store4", "--world-size", "2", "--rendezvous-timeout", "1", "--rename-stale-store", "--json") 60
  $aside = @(Get-ChildItem -LiteralPath (Join-Path $out4 "store") -Filter "filestore.stale-*" -ErrorAction SilentlyContinue)
  if ($r.Code -eq 0 -and $aside.Count -eq 1 -and -not (Test-Path -LiteralPath $store4)) { Report "4b" PASS "doctor --rename-stale-store renamed the killed run's store to $($aside[0].Name)" }
  else { Report "4b" FAIL "doctor --rename-stale-store on the killed run's store" "exit $($r.Code): $($r.Err)$(Get-Codes $r)" }
}

# --- 5. PORT_IN_USE must name the holder's PID (GetExtendedTcpTable owner pid; wine says 0).
$listener = New-Object Net.Sockets.TcpListener([Net.IPAddress]::Loopback, 0)
$listener.Start()
$port = $listener.LocalEndpoint.Port
try { $r = Invoke-Tool "5-port" $cli @("doctor", "--store", "tcp://127.0.0.1:$port", "--timeout", "1", "--deadline", "30", "--json") 60 }
finally { $listener.Stop() }
$f = Get-Finding $r "PORT_IN_USE"
if ($f -and $f.evidence.pid -eq $PID) { Report "5a" PASS "PORT_IN_USE on a listening port names this PowerShell (pid $PID)" }
else { Report "5a" FAIL "PORT_IN_USE naming pid $PID for port $port" "findings: $(Get-Codes $r); pid in evidence: $(if ($f) { $f.evidence.pid })" }
# Bound but not listening: connect is refused (after Windows' ~2 s of SYN retries, hence --timeout 5), so only the
# exclusive wildcard bind in os/tcp_socket_win.cpp can tell the port is taken.
$sock = New-Object Net.Sockets.Socket([Net.Sockets.AddressFamily]::InterNetwork, [Net.Sockets.SocketType]::Stream, [Net.Sockets.ProtocolType]::Tcp)
$sock.Bind((New-Object Net.IPEndPoint([Net.IPAddress]::Loopback, 0)))
$port = $sock.LocalEndPoint.Port
try { $r = Invoke-Tool "5-bound" $cli @("doctor", "--store", "tcp://127.0.0.1:$port", "--timeout", "5", "--deadline", "30", "--json") 60 }
finally { $sock.Close() }
$f = Get-Finding $r "PORT_IN_USE"
if ($f) { Report "5b" PASS "PORT_IN_USE on a bound, not listening port" "holder pid in evidence: $(if ($f.evidence.pid) { $f.evidence.pid } else { 'none named' })" }
else { Report "5b" FAIL "PORT_IN_USE on a bound, not listening port $port" "findings: $(Get-Codes $r)" }

# --- 6. FILESTORE_LOCKED must name the holder's PID (Restart Manager). The file is older than the 1 s "just
# written" window, so only a holder seen by RmGetList can make it LOCKED.
$store6 = Join-Path $scratch "locked store\filestore"
New-Item -ItemType Directory -Path (Split-Path $store6) | Out-Null
[IO.File]::WriteAllBytes($store6, [byte[]]@())
Start-Sleep -Milliseconds 1500
foreach ($case in @(@{ Id = "6a"; Share = "ReadWrite"; Text = "held open (shared, as a rank mid-operation)" },
                    @{ Id = "6b"; Share = "None"; Text = "locked exclusively (FileShare.None)" })) {
  $fs = [IO.File]::Open($store6, "Open", "ReadWrite", $case.Share)
  try { $r = Invoke-Tool "$($case.Id)-file" $cli @("doctor", "--store", "file:$store6", "--json") 60 } finally { $fs.Dispose() }
  $f = Get-Finding $r "FILESTORE_LOCKED"
  # 6b: per file_store_checks.cpp the write probe may hit the sharing violation first (FILESTORE_NOT_WRITABLE,
  # no holder named); a FAIL here confirms that gap on Windows.
  if ($f -and $f.evidence.pid -eq $PID) { Report $case.Id PASS "FILESTORE_LOCKED names this PowerShell when the store is $($case.Text)" }
  else { Report $case.Id FAIL "FILESTORE_LOCKED naming pid $PID, store $($case.Text)" "findings: $(Get-Codes $r)" }
}

# --- 7. NVML from the driver by full path (System32, or NVSMI for drivers before R418); none is a normal state.
$nvml = @(@((Join-Path ([Environment]::SystemDirectory) "nvml.dll"), "$env:ProgramW6432\NVIDIA Corporation\NVSMI\nvml.dll") | Where-Object { Test-Path $_ })
$r = Invoke-Tool "7-gpus" $cli @("gpus", "--json") 60
try { $g = $r.Out | ConvertFrom-Json -ErrorAction Stop } catch { $g = $null }
if ($r.Code -ne 0 -or -not $g) { Report "7" FAIL "ddpdesk-cli gpus --json" "exit $($r.Code)`n$($r.Err)" }
elseif ($nvml.Count -eq 0) { Report "7" SKIP "no NVIDIA driver (no nvml.dll): gpus exited 0 and said: $($g.nvml.reason)" }
elseif ($g.nvml.available -and @($g.gpus).Count -ge 1) { Report "7" PASS "gpus via NVML: $(@($g.gpus).Count) GPU(s), driver $($g.nvml.driver)" }
else { Report "7" FAIL "nvml.dll is installed ($($nvml[0])) but gpus shows none" "reason: $($g.nvml.reason)" }

# --- 8. Owned files: a run refuses (exit 2) what it did not create at its paths and leaves it untouched.
$out8 = Join-Path $scratch "owned\run"
New-Item -ItemType Directory -Path (Join-Path $out8 "store") | Out-Null
Set-Content -LiteralPath (Join-Path $out8 "store\keep.txt") -Value "keep me"
$r = Invoke-Tool "8-foreign" $cli @("run", "--nproc", "2", "--steps", "5", "--out", $out8) 120
$names = @(Get-ChildItem -LiteralPath (Join-Path $out8 "store") -Force | ForEach-Object { $_.Name })
$kept = (Get-Content -LiteralPath (Join-Path $out8 "store\keep.txt")) -eq "keep me"
if ($r.Code -eq 2 -and $r.Err -match "holds files DDP Desk did not put there" -and $kept -and ($names -join ",") -eq "keep.txt") { Report "8a" PASS "a foreign file in OUT\store: exit 2, nothing touched" }
else { Report "8a" FAIL "a foreign file in OUT\store" "exit $($r.Code), store holds: $($names -join ', ')`n$($r.Err)" }
# A junction is Windows' own kind of link (QFileInfo::isJunction): it must be refused, never written through.
$out8b = Join-Path $scratch "owned\junction run"
$target = Join-Path $scratch "owned\junction target"
New-Item -ItemType Directory -Path $out8b, $target | Out-Null
Set-Content -LiteralPath (Join-Path $target "keep.txt") -Value "keep me"
$junction = New-Item -ItemType Junction -Path (Join-Path $out8b "store") -Target $target -ErrorAction SilentlyContinue
if (-not $junction) { Report "8b" SKIP "could not create a junction in $out8b" }
else {
  $r = Invoke-Tool "8-junction" $cli @("run", "--nproc", "2", "--steps", "5", "--out", $out8b) 120
  $names = @(Get-ChildItem -LiteralPath $target -Force | ForEach-Object { $_.Name })
  if ($r.Code -eq 2 -and $r.Err -match "is a link" -and ($names -join ",") -eq "keep.txt") { Report "8b" PASS "a junction at OUT\store: exit 2, target untouched" }
  else { Report "8b" FAIL "a junction at OUT\store" "exit $($r.Code), target holds: $($names -join ', ')`n$($r.Err)" }
  [IO.Directory]::Delete($junction.FullName) # the link only, before any recursive removal below
}

# --- Summary
$count = { param($s) @($results | Where-Object { $_.Status -eq $s }).Count }
$failed = & $count "FAIL"
Write-Host ("`nSummary: {0} PASS, {1} FAIL, {2} SKIP ({3})" -f (& $count "PASS"), $failed, (& $count "SKIP"), $bin)
$results | Where-Object { $_.Status -ne "PASS" } | ForEach-Object { Write-Host "  $($_.Id) $($_.Status): $($_.What)" }
Write-Host "Please post this output on issue 18 and fill in docs/windows.md's `"run on real Windows`" column."
if ($failed -gt 0 -or $KeepScratch) { Write-Host "Logs of every command: $scratch" }
else { Remove-Item -LiteralPath $scratch -Recurse -Force -ErrorAction SilentlyContinue }
exit $(if ($failed -gt 0) { 1 } else { 0 })
