<#
.SYNOPSIS
  Builds DDP Desk on Windows and produces the NSIS installer (and a ZIP) with CPack.

.DESCRIPTION
  Prerequisites (see README, "Building on Windows"):
    * Visual Studio 2022 (Desktop development with C++), which brings CMake and the MSVC runtime.
    * Qt 6.4 or newer for MSVC 2019/2022 64-bit from the Qt online installer, with the Qt Charts module.
    * LibTorch 2.x for Windows (Release, CPU or CUDA) unzipped, e.g. C:\libtorch.
    * nlohmann-json and CLI11 headers (vcpkg: `vcpkg install nlohmann-json cli11 zlib`), or their CMake packages.
    * NSIS 3 (makensis on PATH) for the installer.

.EXAMPLE
  .\installer\windows\build-installer.ps1 -QtDir C:\Qt\6.5.3\msvc2019_64 -LibTorch C:\libtorch `
      -Toolchain C:\vcpkg\scripts\buildsystems\vcpkg.cmake
#>
param(
  [Parameter(Mandatory = $true)][string]$QtDir,
  [Parameter(Mandatory = $true)][string]$LibTorch,
  [string]$Toolchain = "",
  [string]$BuildDir = "build",
  [string]$Config = "Release"
)
$ErrorActionPreference = "Stop"
$root = Resolve-Path (Join-Path $PSScriptRoot "..\..")
Set-Location $root

foreach ($p in @($QtDir, $LibTorch)) {
  if (-not (Test-Path $p)) { throw "Not found: $p" }
}
if (-not (Test-Path (Join-Path $LibTorch "share\cmake\Torch\TorchConfig.cmake"))) {
  throw "$LibTorch does not look like an unzipped LibTorch (share\cmake\Torch\TorchConfig.cmake is missing)"
}

$cmakeArgs = @("-S", ".", "-B", $BuildDir, "-G", "Visual Studio 17 2022", "-A", "x64",
               "-DCMAKE_PREFIX_PATH=$QtDir;$LibTorch", "-DDDPDESK_BUILD_TESTS=OFF")
if ($Toolchain) { $cmakeArgs += "-DCMAKE_TOOLCHAIN_FILE=$Toolchain" }
cmake @cmakeArgs
if ($LASTEXITCODE -ne 0) { throw "CMake configure failed" }

cmake --build $BuildDir --config $Config --parallel
if ($LASTEXITCODE -ne 0) { throw "Build failed" }

# LibTorch and Qt DLLs next to the executables so build\bin runs as it is.
$bin = Join-Path $BuildDir "bin"
Copy-Item (Join-Path $LibTorch "lib\*.dll") $bin -Force
& (Join-Path $QtDir "bin\windeployqt.exe") --release --no-translations (Join-Path $bin "ddpdesk.exe") (Join-Path $bin "ddpdesk-cli.exe")
if ($LASTEXITCODE -ne 0) { throw "windeployqt failed" }

& (Join-Path $bin "ddpdesk-cli.exe") --version
if ($LASTEXITCODE -ne 0) { throw "ddpdesk-cli --version failed: a DLL is missing next to the executables" }

Push-Location $BuildDir
cpack -C $Config -G "NSIS;ZIP"
$rc = $LASTEXITCODE
Pop-Location
if ($rc -ne 0) { throw "CPack failed (is NSIS installed and makensis on PATH?)" }
Get-ChildItem (Join-Path $BuildDir "ddpdesk-*.exe"), (Join-Path $BuildDir "ddpdesk-*.zip") | Format-Table Name, Length
