// os.net_interfaces (Linux) and wine.net_interfaces (mingw-w64 under wine): netInterfaces, what the scaling
// diagnosis reads to say that Gloo's traffic takes the wrong interface. On Linux a fresh network namespace
// (ip netns) gets a bridge, a veth pair and a tun device, and this program, run inside it, lists them: each
// with the kind, address and speed the kernel gives it.
#include "mini_test.h"
#include "os/net_interfaces.h"
#include "os/process.h"
#include "subprocess.h"

#include <algorithm>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>

using namespace ddpdesk;
using namespace ddpdesk::testsupport;

namespace {

bool holds(const os::NetInterface& i, const std::string& address) {
    return std::find(i.addresses.begin(), i.addresses.end(), address) != i.addresses.end();
}

// One line per interface: name kind up speed why... (the child's answer inside the namespace)
int printInterfaces() {
    for (const os::NetInterface& i : os::netInterfaces()) {
        std::cout << i.name << ' ' << os::interfaceKindName(i.kind) << ' ' << (i.up ? "up" : "down") << ' '
                  << i.speedMbps << ' ' << (i.addresses.empty() ? "-" : i.addresses.front()) << ' '
                  << (i.kindWhy.empty() ? "-" : i.kindWhy) << '\n';
    }
    return 0;
}

} // namespace

TEST_CASE(loopbackIsListedAsLoopback) {
    const auto list = os::netInterfaces();
    TEST_REQUIRE_MSG(!list.empty(), "no interface listed");
    const auto lo = std::find_if(list.begin(), list.end(), [](const os::NetInterface& i) {
        return i.kind == os::InterfaceKind::Loopback;
    });
    TEST_REQUIRE_MSG(lo != list.end(), "no loopback interface");
    TEST_CHECK_MSG(holds(*lo, "127.0.0.1"), lo->name);
}

#ifndef _WIN32
TEST_CASE(aBridgeAVethAndATunnelInAFreshNamespace) {
    const std::string ns = "ddpdif" + std::to_string(os::currentPid());
    auto ip = [](std::vector<std::string> args) { return runProgram("ip", args, std::chrono::seconds(10)); };
    const ProgramResult made = ip({"netns", "add", ns});
    if (!made.started || made.exitCode != 0)
        TEST_SKIP("network namespaces are not permitted here: 'ip netns add' failed: " + made.err);
    struct Drop {
        std::function<void()> f;
        ~Drop() { f(); }
    } drop{[&] { ip({"netns", "del", ns}); }};
    // Entering it (ip -n too) remounts /sys for the namespace; a chroot (the Qt-free leg's root) cannot.
    const ProgramResult enter = ip({"netns", "exec", ns, "true"});
    if (enter.exitCode != 0)
        TEST_SKIP("a network namespace cannot be entered here ('ip netns exec' failed: " + enter.err +
                  "); the main leg runs this case");
    const std::vector<std::vector<std::string>> steps = {
        {"-n", ns, "link", "set", "lo", "up"},
        {"-n", ns, "link", "add", "ddpbr0", "type", "bridge"},
        {"-n", ns, "addr", "add", "10.79.0.1/24", "dev", "ddpbr0"},
        {"-n", ns, "link", "set", "ddpbr0", "up"},
        {"-n", ns, "link", "add", "ddpv0", "type", "veth", "peer", "name", "ddpv1"},
        {"-n", ns, "addr", "add", "10.79.1.1/24", "dev", "ddpv0"},
        {"-n", ns, "link", "set", "ddpv0", "up"},
        {"-n", ns, "link", "set", "ddpv1", "up"},
    };
    for (const auto& s : steps) {
        const ProgramResult r = ip(s);
        TEST_REQUIRE_MSG(r.exitCode == 0, r.err);
    }
    const bool tun = ip({"-n", ns, "tuntap", "add", "dev", "ddptun0", "mode", "tun"}).exitCode == 0;
    const ProgramResult r =
        ip({"netns", "exec", ns, currentExecutable(), "--print-interfaces"}); // /sys remounted for it
    TEST_REQUIRE_MSG(r.exitCode == 0, r.err);
    std::map<std::string, std::vector<std::string>> seen;
    std::map<std::string, std::string> whole;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::vector<std::string> w;
        for (std::string word; words >> word;)
            w.push_back(word);
        if (!w.empty()) seen[w[0]] = w, whole[w[0]] = line;
    }
    TEST_REQUIRE_MSG(seen.count("lo") && seen.count("ddpbr0") && seen.count("ddpv0"), r.out);
    TEST_CHECK_EQ(seen["lo"][1], std::string("loopback"));
    TEST_CHECK_EQ(seen["lo"][4], std::string("127.0.0.1"));
    TEST_CHECK_EQ(seen["ddpbr0"][1], std::string("virtual"));
    TEST_CHECK_EQ(seen["ddpbr0"][4], std::string("10.79.0.1"));
    TEST_CHECK_MSG(whole["ddpbr0"].size() > 8 &&
                       whole["ddpbr0"].compare(whole["ddpbr0"].size() - 8, 8, "a bridge") == 0,
                   whole["ddpbr0"]);
    TEST_CHECK_EQ(seen["ddpv0"][1], std::string("wired"));
    TEST_CHECK_EQ(seen["ddpv0"][2], std::string("up"));    // its peer is up: a carrier
    TEST_CHECK_EQ(seen["ddpv0"][3], std::string("10000")); // veth's nominal speed
    TEST_CHECK_EQ(seen["ddpv0"][4], std::string("10.79.1.1"));
    if (tun) TEST_CHECK_EQ(seen["ddptun0"][1], std::string("virtual"));
}
#endif

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "--print-interfaces") return printInterfaces();
    return runAll(argc, argv);
}
