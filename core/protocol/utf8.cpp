#include "protocol/utf8.h"

#include <algorithm>
#include <cstddef>

namespace ddpdesk::protocol {

namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD"; // U+FFFD

// Length of the valid sequence starting at `i`, or 0 when the bytes there do not start one; `*consumed` is
// then the maximal subpart to replace by one U+FFFD (at least 1).
std::size_t validSequence(std::string_view s, std::size_t i, std::size_t* consumed) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b0 = byte(i);
    *consumed = 1;
    if (b0 < 0x80) return 1;
    std::size_t need = 0;
    unsigned char lo = 0x80, hi = 0xBF; // the allowed range of the second byte (Unicode table 3-7)
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        need = 1;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        need = 2;
        if (b0 == 0xE0) lo = 0xA0;
        if (b0 == 0xED) hi = 0x9F; // no surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        need = 3;
        if (b0 == 0xF0) lo = 0x90;
        if (b0 == 0xF4) hi = 0x8F; // nothing above U+10FFFF
    } else {
        return 0;
    }
    std::size_t k = 1;
    for (; k <= need; ++k) {
        if (i + k >= s.size()) break;
        const unsigned char b = byte(i + k);
        const bool ok = k == 1 ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
        if (!ok) break;
    }
    if (k > need) return need + 1;
    *consumed = k; // the lead byte plus the continuation bytes that were still valid
    return 0;
}

} // namespace

bool isValidUtf8(std::string_view bytes) {
    std::size_t consumed = 0;
    for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t n = validSequence(bytes, i, &consumed);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string validUtf8(std::string_view bytes) {
    if (isValidUtf8(bytes)) return std::string(bytes);
    std::string out;
    out.reserve(bytes.size() + 8);
    std::size_t consumed = 0;
    for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t n = validSequence(bytes, i, &consumed);
        if (n > 0) {
            out.append(bytes.data() + i, n);
            i += n;
        } else {
            out += kReplacement;
            i += consumed;
        }
    }
    return out;
}

std::string printableLine(std::string_view text, std::size_t maxChars) {
    std::string out = validUtf8(text.substr(0, maxChars + 4));
    for (char& c : out)
        if ((unsigned char)c < 0x20 || c == 0x7f) c = '?';
    if (out.size() > maxChars || text.size() > maxChars + 4) {
        std::size_t cut = std::min(out.size(), maxChars);
        while (cut > 0 && ((unsigned char)out[cut] & 0xc0) == 0x80)
            --cut; // not inside a character
        out = out.substr(0, cut) + "...";
    }
    return out;
}

} // namespace ddpdesk::protocol
