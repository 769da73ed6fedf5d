#include "monitor/gpu_table.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <sstream>

namespace ddpdesk::monitor {

namespace {

const char* kNotAvailable = "N/A";

template <typename T> std::string fmt(const char* format, T value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

template <typename T> std::string percent(const std::optional<T>& v) {
    return v ? fmt("%u%%", unsigned(*v)) : kNotAvailable;
}

std::string pair(const std::string& a, const std::string& b, const char* separator = " / ") {
    if (a == kNotAvailable && b == kNotAvailable) return kNotAvailable;
    return a + separator + b;
}

std::string localTime(double t) {
    std::time_t seconds = std::time_t(t);
    char buffer[32] = "";
    if (const std::tm* tm = std::localtime(&seconds))
        std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M:%S", tm);
    return buffer;
}

// Rows come in groups (a header or a GPU takes two lines); a rule closes every group. Rows shorter than the
// header end in one cell spanning the remaining columns (a lost GPU's message). Column 0 and the numeric
// columns are right-aligned, names and spanning cells left-aligned.
std::string renderTable(const std::vector<std::vector<std::string>>& rows, size_t groupSize) {
    const size_t columns = rows.front().size();
    std::vector<size_t> width(columns, 0);
    for (const auto& row : rows)
        for (size_t c = 0; c < row.size(); ++c)
            if (row.size() == columns || c + 1 < row.size()) width[c] = std::max(width[c], row[c].size());
    auto spanWidth = [&](size_t from) {
        size_t w = 3 * (columns - 1 - from);
        for (size_t c = from; c < columns; ++c)
            w += width[c];
        return w;
    };
    for (const auto& row : rows)
        if (row.size() < columns && row.back().size() > spanWidth(row.size() - 1))
            width.back() += row.back().size() - spanWidth(row.size() - 1);

    std::string rule = "+";
    for (size_t w : width)
        rule += std::string(w + 2, '-') + "+";
    std::ostringstream out;
    out << rule << "\n";
    for (size_t r = 0; r < rows.size(); ++r) {
        const auto& row = rows[r];
        out << "|";
        for (size_t c = 0; c < row.size(); ++c) {
            bool spans = row.size() < columns && c + 1 == row.size();
            size_t pad = (spans ? spanWidth(c) : width[c]) - row[c].size();
            bool left = spans || c == 1;
            out << " " << (left ? row[c] + std::string(pad, ' ') : std::string(pad, ' ') + row[c]) << " |";
        }
        out << "\n";
        if ((r + 1) % groupSize == 0) out << rule << "\n";
    }
    return out.str();
}

// "5.00 / 80.0 GiB": both values in the larger one's unit, so they compare at a glance.
std::string bytesPair(const std::optional<double>& a, const std::optional<double>& b,
                      const char* suffix = "") {
    if (!a || !b)
        return pair(a ? formatBytes(*a) + suffix : kNotAvailable,
                    b ? formatBytes(*b) + suffix : kNotAvailable);
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double scale = 1;
    int unit = 0;
    while (std::max(*a, *b) / scale >= 1024.0 && unit < 4) {
        scale *= 1024.0;
        ++unit;
    }
    auto number = [&](double v) {
        v /= scale;
        return unit == 0 ? fmt("%.0f", v) : fmt(v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f", v);
    };
    return number(*a) + " / " + number(*b) + " " + units[unit] + suffix;
}

template <typename T> std::optional<double> asDouble(const std::optional<T>& v) {
    return v ? std::optional<double>(double(*v)) : std::nullopt;
}

} // namespace

std::string formatBytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (bytes >= 1024.0 && unit < 4) {
        bytes /= 1024.0;
        ++unit;
    }
    if (unit == 0) return fmt("%.0f B", bytes);
    return fmt(bytes < 10 ? "%.2f " : bytes < 100 ? "%.1f " : "%.0f ", bytes) + units[unit];
}

std::string formatGpuTable(const NvmlStatus& nvml, const std::vector<GpuSample>& gpus, double t) {
    std::ostringstream out;
    if (!nvml.available) {
        out << "NVML could not be loaded, so no GPU can be shown: " << nvml.reason << "\n"
            << "This is normal on machines without an NVIDIA GPU or driver; CPU-only runs show each worker's "
               "CPU % "
               "and memory instead.\n";
        return out.str();
    }
    out << "DDP Desk GPUs - NVML driver " << nvml.driverVersion << " - " << gpus.size() << " GPU(s) - "
        << localTime(t) << "\n";
    if (gpus.empty()) return out.str() + "NVML works but reports no GPU.\n";

    // Two lines per GPU, like nvidia-smi, so the table fits a default 120-column console.
    std::vector<std::vector<std::string>> rows{
        {"GPU", "Name", "GPU% / Mem%", "Memory used / total", "Temp / Fan"},
        {"", "Bus-Id", "SM / Mem clock", "Power / limit", "PCIe TX / RX"}};
    for (const GpuSample& g : gpus) {
        std::vector<std::string> first{std::to_string(g.index), g.name.empty() ? kNotAvailable : g.name};
        std::vector<std::string> second{"", g.pciBusId.empty() ? kNotAvailable : g.pciBusId};
        if (g.lost) {
            first.push_back("GPU lost: no longer sampled");
            second.push_back("");
        } else {
            first.push_back(pair(percent(g.gpuUtilPercent), percent(g.memUtilPercent)));
            first.push_back(bytesPair(asDouble(g.memUsedBytes), asDouble(g.memTotalBytes)));
            first.push_back(
                pair(g.temperatureC ? fmt("%uC", *g.temperatureC) : kNotAvailable, percent(g.fanPercent)));
            second.push_back(pair(g.smClockMHz ? fmt("%u", *g.smClockMHz) : kNotAvailable,
                                  g.memClockMHz ? fmt("%u MHz", *g.memClockMHz) : kNotAvailable));
            second.push_back(pair(g.powerDrawW ? fmt("%.0fW", *g.powerDrawW) : kNotAvailable,
                                  g.powerLimitW ? fmt("%.0fW", *g.powerLimitW) : kNotAvailable));
            second.push_back(bytesPair(g.pcieTxBytesPerSecond, g.pcieRxBytesPerSecond, "/s"));
        }
        rows.push_back(std::move(first));
        rows.push_back(std::move(second));
    }
    out << renderTable(rows, 2);

    out << "Processes:\n";
    bool any = false;
    for (const GpuSample& g : gpus) {
        if (g.lost) continue;
        if (!g.processes) {
            out << "  GPU " << g.index << ": process list not available\n";
            continue;
        }
        for (const GpuProcess& p : *g.processes) {
            out << "  GPU " << g.index << "  PID " << p.pid << "  "
                << (p.usedMemoryBytes ? formatBytes(double(*p.usedMemoryBytes)) : std::string(kNotAvailable))
                << "\n";
            any = true;
        }
    }
    if (!any) out << "  no compute processes running\n";
    return out.str();
}

} // namespace ddpdesk::monitor
