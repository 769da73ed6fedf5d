<#
.SYNOPSIS
  Builds DDP Desk on Windows and produces the NSIS installer (and a ZIP) with CPack.

.DESCRIPTION
  Prerequisites (see README, "Building on Windows"):
    * Visual Studio 2022 (Desktop development with C++), which brings CMake and the MSVC runtime.
    * Qt 6.4 or newer for MSVC 64-bit from the Qt online installer, with the Qt Charts module.
    * LibTorch for Windows (Release, CPU or CUDA) unzipped, e.g. C:\libtorch.
    * nlohmann-json, CLI11 and zlib, e.g. with vcpkg:
        vcpkg install nlohmann-json:x64-windows cli11:x64-windows zlib:x64-windows
    * NSIS 3.03 or newer (its installer registers it; CPack finds makensis through the registry or PATH).

  Steps: configure (Visual Studio 2022, x64, tests off), build, make build\bin runnable (LibTorch DLLs are copied
  there by the build, windeployqt adds the Qt runtime), check `ddpdesk-cli --version` and `ddpdesk-worker --version`
  from there, then `cpack -G "NSIS;ZIP"`. The installer's content comes from `cmake --install` into CPack's staging
  folder (installer/windows/windows_package.cmake), not from build\bin.

.EXAMPLE
  .\installer\windows\build-installer.ps1 -QtDir C:\Qt\6.5.3\msvc2019_64 -LibTorch C:\libtorch `
      -Toolchain C:\vcpkg\scripts\buildsystems\vcpkg.cmake
#>
param(
  [Parameter(Mandatory = $true)][string]$QtDir,
  [Parameter(Mandatory = $true)][string]$LibTorch,
  [string]$Toolchain = "",
  [string]$BuildDir = "build",
  [ValidateSet("Release", "RelWithDebInfo", "MinSizeRel", "Debug")][string]$Config = "Release"
)
$ErrorActionPreference = "Stop"
$root = Resolve-Path (Join-Path $PSScriptRoot "..\..")
Set-Location $root

# Fail before a long build, naming what is missing.
$QtDir = (Resolve-Path $QtDir).Path
$LibTorch = (Resolve-Path $LibTorch).Path
if (-not (Test-Path (Join-Path $QtDir "lib\cmake\Qt6\Qt6Config.cmake"))) {
  throw "$QtDir is not a Qt 6 kit folder (lib\cmake\Qt6\Qt6Config.cmake is missing); pass e.g. C:\Qt\6.5.3\msvc2019_64"
}
if (-not (Test-Path (Join-Path $QtDir "lib\cmake\Qt6Charts"))) {
  throw "Qt Charts is not installed in $QtDir (add it with the Qt Maintenance Tool)"
}
$windeployqt = Join-Path $QtDir "bin\windeployqt.exe"
if (-not (Test-Path $windeployqt)) { throw "windeployqt.exe not found in $QtDir\bin" }
if (-not (Test-Path (Join-Path $LibTorch "share\cmake\Torch\TorchConfig.cmake"))) {
  throw "$LibTorch does not look like an unzipped LibTorch (share\cmake\Torch\TorchConfig.cmake is missing)"
}
if (-not (Get-ChildItem (Join-Path $LibTorch "lib\*.dll") -ErrorAction SilentlyContinue)) {
  throw "$LibTorch\lib holds no DLL: download the Windows LibTorch zip (Release), not a Linux or macOS one"
}
$nsisFound = (Get-Command makensis -ErrorAction SilentlyContinue) -or
             (Test-Path "HKLM:\SOFTWARE\WOW6432Node\NSIS") -or (Test-Path "HKLM:\SOFTWARE\NSIS")
if (-not $nsisFound) { throw "NSIS is not installed (https://nsis.sourceforge.io, 3.03 or newer)" }

# CMake reads these paths inside its own scripts too, where a backslash would start an escape sequence.
$prefixPath = (($QtDir, $LibTorch) | ForEach-Object { $_ -replace '\\', '/' }) -join ';'
$cmakeArgs = @("-S", ".", "-B", $BuildDir, "-G", "Visual Studio 17 2022", "-A", "x64",
               "-DCMAKE_PREFIX_PATH=$prefixPath", "-DDDPDESK_BUILD_TESTS=OFF",
               "-DDDPDESK_WINDEPLOYQT=$($windeployqt -replace '\\', '/')")
if ($Toolchain) {
  if (-not (Test-Path $Toolchain)) { throw "Toolchain file not found: $Toolchain" }
  $cmakeArgs += "-DCMAKE_TOOLCHAIN_FILE=$((Resolve-Path $Toolchain).Path -replace '\\', '/')"
  $cmakeArgs += "-DVCPKG_TARGET_TRIPLET=x64-windows"
}
cmake @cmakeArgs
if ($LASTEXITCODE -ne 0) { throw "CMake configure failed" }

cmake --build $BuildDir --config $Config --parallel
if ($LASTEXITCODE -ne 0) { throw "Build failed" }

# The Qt runtime next to the built executables too, so build\bin runs as it is (the LibTorch DLLs are copied there
# after each build by CMakeLists.txt). Visual Studio is installed here, so no compiler runtime is needed.
$bin = Join-Path $BuildDir "bin"
$mode = if ($Config -eq "Debug") { "--debug" } else { "--release" }
& $windeployqt $mode --no-compiler-runtime (Join-Path $bin "ddpdesk.exe") (Join-Path $bin "ddpdesk-cli.exe")
if ($LASTEXITCODE -ne 0) { throw "windeployqt failed" }

# ddpdesk.exe is a GUI program, which PowerShell does not wait for; the two console programs prove the DLLs.
foreach ($exe in @("ddpdesk-cli.exe", "ddpdesk-worker.exe")) {
  & (Join-Path $bin $exe) --version
  if ($LASTEXITCODE -ne 0) { throw "$exe --version failed: a DLL is missing next to the executables in $bin" }
}

Push-Location $BuildDir
try {
  cpack -C $Config -G "NSIS;ZIP"
  $rc = $LASTEXITCODE
} finally {
  Pop-Location
}
if ($rc -ne 0) { throw "CPack failed (see $BuildDir\_CPack_Packages\win64\NSIS\NSISOutput.log)" }
Get-ChildItem (Join-Path $BuildDir "ddpdesk-*-win64.exe"), (Join-Path $BuildDir "ddpdesk-*-win64.zip") |
  Format-Table Name, Length
