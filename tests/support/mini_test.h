#pragma once

// A small test harness for the tests that must build without Qt (DDPDESK_WITH_QT=OFF): cases registered with
// TEST_CASE, checks that record a failure and go on (TEST_CHECK*) or end the case (TEST_REQUIRE*, TEST_FAIL),
// TEST_SKIP with a reason, rows of a data-driven case run one by one (testRow), and DDPDESK_TEST_MAIN() for a
// main() that runs every case (or those named on the command line), prints PASS/FAIL/SKIP lines and returns
// non-zero when anything failed. The macros carry a TEST_ prefix because LibTorch's c10 defines CHECK.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ddpdesk::testsupport {

// Thrown to end the current case (or row) after its failure was recorded.
struct AbortCase {};
// Thrown by TEST_SKIP.
struct SkipCase {
    std::string reason;
};

struct TestCase {
    const char* name;
    void (*fn)();
};

inline std::vector<TestCase>& registry() {
    static std::vector<TestCase> cases;
    return cases;
}

struct Registrar {
    Registrar(const char* name, void (*fn)()) { registry().push_back({name, fn}); }
};

// What the running case has done so far: failures are counted per case, the row names where they happened.
struct RunState {
    std::string caseName;
    std::string row;
    int failures = 0;
};

inline RunState& state() {
    static RunState s;
    return s;
}

inline std::string where() {
    const RunState& s = state();
    return s.row.empty() ? s.caseName : s.caseName + "(" + s.row + ")";
}

inline void recordFailure(const char* file, int line, const std::string& what) {
    ++state().failures;
    std::cout << "FAIL!  : " << where() << " " << what << "\n   Loc: [" << file << "(" << line << ")]"
              << std::endl;
}

// Printing values in failure messages: strings quoted with their odd bytes escaped, containers element by
// element, anything with operator<< through it, the rest as "<value>".
template <typename T, typename = void> struct Streamable : std::false_type {};
template <typename T>
struct Streamable<T, std::void_t<decltype(std::declval<std::ostream&>() << std::declval<const T&>())>>
    : std::true_type {};

inline std::string show(const std::string& s) {
    std::string out = "\"";
    const std::string shown = s.size() > 2000 ? s.substr(0, 2000) : s;
    for (unsigned char c : shown) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        }
    }
    out += '"';
    if (shown.size() < s.size()) out += "... (" + std::to_string(s.size()) + " bytes)";
    return out;
}
inline std::string show(const char* s) {
    return s ? show(std::string(s)) : "nullptr";
}
inline std::string show(bool b) {
    return b ? "true" : "false";
}

template <typename T> std::string show(const T& v);

template <typename T> std::string show(const std::vector<T>& v) {
    std::string out = "{";
    for (size_t i = 0; i < v.size(); ++i)
        out += (i ? ", " : "") + show(v[i]);
    return out + "}";
}

template <typename T> std::string show(const T& v) {
    if constexpr (std::is_enum_v<T>) {
        return std::to_string(static_cast<long long>(v));
    } else if constexpr (Streamable<T>::value) {
        std::ostringstream s;
        s << std::setprecision(17) << v;
        return s.str();
    } else {
        return "<value>";
    }
}

// Equality as Qt Test's QCOMPARE judges it, so ported checks keep their meaning: floating-point values
// compare fuzzily (relative 1e-12 for double, 1e-5 for float; near zero, absolute), everything else with ==.
template <typename A, typename B> bool equalValues(const A& a, const B& b) {
    if constexpr (std::is_floating_point_v<A> && std::is_floating_point_v<B>) {
        using F = std::conditional_t<std::is_same_v<A, float> && std::is_same_v<B, float>, float, double>;
        const F actual = static_cast<F>(a), expected = static_cast<F>(b);
        const F scale = std::is_same_v<F, float> ? F(100000) : F(1000000000000.0);
        const F zero = std::is_same_v<F, float> ? F(0.00001) : F(0.000000000001);
        if (std::isnan(expected)) return std::isnan(actual);
        if (std::isinf(expected)) return std::isinf(actual) && (actual < 0) == (expected < 0);
        if (std::abs(expected) <= zero) return std::abs(actual) <= zero;
        return std::abs(actual - expected) * scale <= std::min(std::abs(actual), std::abs(expected));
    } else if constexpr (std::is_integral_v<A> && std::is_integral_v<B> && !std::is_same_v<A, bool> &&
                         !std::is_same_v<B, bool>) {
        // Mixed signedness compares by value, never through a wrap-around.
        if constexpr (std::is_signed_v<A> == std::is_signed_v<B>)
            return a == b;
        else if constexpr (std::is_signed_v<A>)
            return a >= 0 && static_cast<unsigned long long>(a) == static_cast<unsigned long long>(b);
        else
            return b >= 0 && static_cast<unsigned long long>(a) == static_cast<unsigned long long>(b);
    } else {
        return a == b;
    }
}

template <typename A, typename B>
bool checkEqual(const A& actual, const B& expected, const char* actualText, const char* expectedText,
                const char* file, int line) {
    if (equalValues(actual, expected)) return true;
    recordFailure(file, line,
                  std::string("Compared values are not the same\n   Actual   (") + actualText +
                      "): " + show(actual) + "\n   Expected (" + expectedText + "): " + show(expected));
    return false;
}

inline bool checkTrue(bool ok, const char* text, const std::string& message, const char* file, int line) {
    if (!ok)
        recordFailure(file, line,
                      std::string("'") + text + "' returned FALSE." +
                          (message.empty() ? "" : " (" + message + ")"));
    return ok;
}

inline std::string message(const std::string& m) {
    return m;
}
inline std::string message(const char* m) {
    return m ? m : "";
}

// Runs one row of a data-driven case: a TEST_REQUIRE failing there ends the row, not the case, as a row of a
// Qt Test data table did.
template <typename Fn> void testRow(const std::string& name, Fn&& fn) {
    const std::string outer = state().row;
    state().row = name;
    try {
        fn();
    } catch (const AbortCase&) {
    } catch (const SkipCase& s) {
        std::cout << "SKIP   : " << where() << " " << s.reason << std::endl;
    } catch (const std::exception& e) {
        recordFailure(__FILE__, __LINE__, std::string("uncaught exception: ") + e.what());
    }
    state().row = outer;
}

// Runs the cases named in argv (all when none), prints one line per case and totals; 0 when nothing failed.
inline int runAll(int argc, char** argv) {
    std::vector<std::string> only(argv + 1, argv + argc);
    int passed = 0, failed = 0, skipped = 0;
    for (const TestCase& c : registry()) {
        if (!only.empty() && std::find(only.begin(), only.end(), c.name) == only.end()) continue;
        RunState& s = state();
        s = RunState{c.name, "", 0};
        std::string skipReason;
        bool skippedCase = false;
        try {
            c.fn();
        } catch (const AbortCase&) {
        } catch (const SkipCase& skip) {
            skippedCase = true;
            skipReason = skip.reason;
        } catch (const std::exception& e) {
            recordFailure(__FILE__, __LINE__, std::string("uncaught exception: ") + e.what());
        } catch (...) {
            recordFailure(__FILE__, __LINE__, "uncaught exception");
        }
        s.row.clear();
        if (s.failures > 0) {
            ++failed; // the FAIL! lines were printed as they happened
        } else if (skippedCase) {
            ++skipped;
            std::cout << "SKIP   : " << c.name << " " << skipReason << std::endl;
        } else {
            ++passed;
            std::cout << "PASS   : " << c.name << std::endl;
        }
    }
    std::cout << "Totals: " << passed << " passed, " << failed << " failed, " << skipped << " skipped"
              << std::endl;
    return failed == 0 && passed + skipped > 0 ? 0 : 1;
}

} // namespace ddpdesk::testsupport

#define DDPDESK_TEST_CAT2(a, b) a##b
#define DDPDESK_TEST_CAT(a, b) DDPDESK_TEST_CAT2(a, b)

// TEST_CASE(name) { ... } defines and registers one case; cases run in the order they are defined.
#define TEST_CASE(name)                                                                                      \
    static void name();                                                                                      \
    static const ::ddpdesk::testsupport::Registrar DDPDESK_TEST_CAT(ddpdeskTestRegistrar_, name)(#name,      \
                                                                                                 name);      \
    static void name()

// Records a failure and goes on.
#define TEST_CHECK(cond)                                                                                     \
    ::ddpdesk::testsupport::checkTrue(static_cast<bool>(cond), #cond, "", __FILE__, __LINE__)
#define TEST_CHECK_MSG(cond, msg)                                                                            \
    ::ddpdesk::testsupport::checkTrue(static_cast<bool>(cond), #cond, ::ddpdesk::testsupport::message(msg),  \
                                      __FILE__, __LINE__)
#define TEST_CHECK_EQ(actual, expected)                                                                      \
    ::ddpdesk::testsupport::checkEqual((actual), (expected), #actual, #expected, __FILE__, __LINE__)

// Records a failure and ends the case (or the row).
#define TEST_REQUIRE(cond)                                                                                   \
    do {                                                                                                     \
        if (!TEST_CHECK(cond)) throw ::ddpdesk::testsupport::AbortCase{};                                    \
    } while (false)
#define TEST_REQUIRE_MSG(cond, msg)                                                                          \
    do {                                                                                                     \
        if (!TEST_CHECK_MSG(cond, msg)) throw ::ddpdesk::testsupport::AbortCase{};                           \
    } while (false)
#define TEST_REQUIRE_EQ(actual, expected)                                                                    \
    do {                                                                                                     \
        if (!TEST_CHECK_EQ(actual, expected)) throw ::ddpdesk::testsupport::AbortCase{};                     \
    } while (false)
#define TEST_FAIL(msg)                                                                                       \
    do {                                                                                                     \
        ::ddpdesk::testsupport::recordFailure(__FILE__, __LINE__, ::ddpdesk::testsupport::message(msg));     \
        throw ::ddpdesk::testsupport::AbortCase{};                                                           \
    } while (false)
#define TEST_SKIP(reason)                                                                                    \
    throw ::ddpdesk::testsupport::SkipCase {                                                                 \
        reason                                                                                               \
    }

#define DDPDESK_TEST_MAIN()                                                                                  \
    int main(int argc, char** argv) {                                                                        \
        return ::ddpdesk::testsupport::runAll(argc, argv);                                                   \
    }
