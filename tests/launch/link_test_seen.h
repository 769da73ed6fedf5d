#pragma once

// What a node link's hooks reported, for the link tests (test_node_link.cpp over sockets,
// test_folder_link.cpp over a folder): node 0's hooks record who connected, the events, who was refused or
// disconnected and why; a node's hooks record its status lines and node 0's requests. The hooks run on the
// link's threads, so everything is behind one mutex, and waitFor polls a predicate under it.

#include "launch/link/node_link_client.h"
#include "launch/link/node_link_server.h"

#include <QElapsedTimer>
#include <QThread>

#include <mutex>
#include <string>
#include <vector>

struct LinkSeen {
    std::mutex mutex;
    std::vector<nlohmann::json> events, control;
    std::vector<std::string> connected, refused, disconnected, status;

    template <class F> bool waitFor(F pred, int ms = 10000) {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < ms) {
            {
                std::lock_guard<std::mutex> lock(mutex);
                if (pred()) return true;
            }
            QThread::msleep(20);
        }
        return false;
    }

    // Everything said but the events and requests, a line each (for a failure's message).
    std::string all() {
        std::lock_guard<std::mutex> lock(mutex);
        std::string s;
        for (auto* list : {&connected, &refused, &disconnected, &status})
            for (const std::string& x : *list)
                s += x + "\n";
        return s;
    }

    ddpdesk::launch::link::NodeLinkServerHooks hubHooks() {
        ddpdesk::launch::link::NodeLinkServerHooks h;
        h.connected = [this](int node, const std::string& host) {
            std::lock_guard<std::mutex> lock(mutex);
            connected.push_back(std::to_string(node) + "@" + host);
        };
        h.events = [this](int, std::vector<nlohmann::json>& list, std::uint64_t) {
            std::lock_guard<std::mutex> lock(mutex);
            for (auto& e : list)
                events.push_back(e);
        };
        h.disconnected = [this](int node, const std::string& why) {
            std::lock_guard<std::mutex> lock(mutex);
            disconnected.push_back(std::to_string(node) + ": " + why);
        };
        h.refused = [this](const std::string& who, const std::string& why) {
            std::lock_guard<std::mutex> lock(mutex);
            refused.push_back(who + ": " + why);
        };
        return h;
    }

    ddpdesk::launch::link::NodeLinkClientHooks nodeHooks() {
        ddpdesk::launch::link::NodeLinkClientHooks h;
        h.status = [this](const std::string& text) {
            std::lock_guard<std::mutex> lock(mutex);
            status.push_back(text);
        };
        h.control = [this](const nlohmann::json& request) {
            std::lock_guard<std::mutex> lock(mutex);
            control.push_back(request);
        };
        return h;
    }
};
