#pragma once

// The node link, written once for both sides: in a multi-node run the launchers of nodes above 0 forward
// their ranks' events (the lines each writes to its own metrics.jsonl) to node 0's launcher, which shows,
// records and controls every rank of every node; node 0 sends back what it asks of them (stop, stacks).
//
// Transport: one TCP connection per node, to the port node 0's launcher listens on beside the store (the
// store's port + kPortOffset, on the store's host). Frames: a 4-byte big-endian length L (at most
// kMaxFrameBytes), then L bytes: 64 hex digits of a MAC, then the payload, one UTF-8 JSON object. The MAC is
// HMAC-SHA256(run secret, "ddpdesk-node-link|<version>|<nonce>|<direction>|<seq>|" + payload): the nonce is
// node 0's for this connection, the direction "up" (to node 0) or "down", seq counts that direction's frames
// from 0, so a frame can be neither forged without the secret nor replayed, reordered or reflected.
//
// 1. node 0 -> node: {"type":"challenge","v":1,"nonce":HEX}, unsigned (the MAC all zeros): it proves nothing.
// 2. node -> node 0, up 0: {"type":"hello","v":1,"node_rank":N,"host":"...","world_size":W,"nproc":P}.
// 3. node 0 -> node, down 0: {"type":"welcome"}; or, unsigned, {"type":"refused","why":"..."} and it closes.
// 4. node -> node 0: {"type":"events","events":[...event objects...],"dropped":D} at most every
//    kBatchInterval, an empty one every kHeartbeat at least (D: events dropped so far, newest kept).
// 5. node 0 -> node: {"type":"stop","reason":"..."}, {"type":"stacks","reason":"..."}.
//
// Over a folder, where a FileStore on a share is all the nodes have (no port to reach): the run's link folder
// sits beside the store file, "<store file>.ddpdesk-link-<tag>", tag = the first 16 hex digits of
// HMAC-SHA256(run secret, "ddpdesk-node-link-folder"), so each run (secret) has its own. Each launcher writes
// one stream, in segment files "node-<N>-<session>-<K>.frames" (session: 16 random hex digits of this
// launcher, K from 0), frames as above appended whole. A segment begins with an unsigned
// {"type":"segment","v":1,"node":N,"session":S,"segment":K}; its signed frames use the nonce "S/N/K" with seq
// from 0 in each segment, direction up for N > 0 and down for node 0. Segment 0 then carries the hello (node
// 0's too), then events (node > 0) or stop / stacks (node 0), and an empty events frame every kHeartbeat; a
// segment past kSegmentBytes ends with {"type":"next"}, the stream with {"type":"bye"}. A stream is followed
// once it grows while its reader watches (a stale one of a crashed run never does); node 0 removes each
// segment of another node once it has read through it, and a node stops writing events (they are dropped and
// counted) while kMaxUnreadSegments of its segments wait for node 0.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace ddpdesk::protocol::node_link {

constexpr int kVersion = 1;
constexpr int kPortOffset = 1;
constexpr std::uint32_t kMaxFrameBytes = 1u << 20;
constexpr std::size_t kMacHexChars = 64;
constexpr std::chrono::milliseconds kBatchInterval{100};
constexpr std::chrono::milliseconds kHeartbeat{1000};
constexpr std::chrono::milliseconds kHandshakeTimeout{5000};
constexpr std::uint64_t kSegmentBytes = 4u << 20;
constexpr int kMaxUnreadSegments = 8;
constexpr std::chrono::milliseconds kFolderPoll{100};
constexpr std::chrono::milliseconds kFolderScan{1000}; // looking for streams not followed yet

enum class Direction { Up, Down };

namespace type {
constexpr const char* Challenge = "challenge";
constexpr const char* Hello = "hello";
constexpr const char* Welcome = "welcome";
constexpr const char* Refused = "refused";
constexpr const char* Events = "events";
constexpr const char* Stop = "stop";
constexpr const char* Stacks = "stacks";
constexpr const char* Segment = "segment"; // over a folder
constexpr const char* Next = "next";
constexpr const char* Bye = "bye";
} // namespace type

namespace field {
constexpr const char* Type = "type";
constexpr const char* Version = "v";
constexpr const char* Nonce = "nonce";
constexpr const char* NodeRank = "node_rank";
constexpr const char* Host = "host";
constexpr const char* WorldSize = "world_size";
constexpr const char* Nproc = "nproc";
constexpr const char* Why = "why";
constexpr const char* Events = "events";
constexpr const char* Dropped = "dropped";
constexpr const char* Reason = "reason";
constexpr const char* Node = "node";
constexpr const char* Session = "session";
constexpr const char* SegmentIndex = "segment";
} // namespace field

// Over a folder: the run's link folder beside `storeFile`, a segment's file name in it, and its frames'
// nonce.
std::string folderName(const std::string& secret, const std::string& storeFileName);
std::string segmentFileName(int node, const std::string& session, std::uint64_t segment);
std::string segmentNonce(int node, const std::string& session, std::uint64_t segment);
// node, session and segment of a segment's file name; false for any other name.
bool parseSegmentFileName(const std::string& name, int* node, std::string* session, std::uint64_t* segment);

// The frame's body (what follows the length): MAC and payload. `secret` empty: unsigned (MAC all zeros).
std::string signFrame(const std::string& secret, const std::string& nonce, Direction d, std::uint64_t seq,
                      const std::string& payload);
// The whole frame, length first.
std::string frameBytes(const std::string& body);
// The payload of a body whose MAC is right for these; nullopt when it is not (or the body is too short).
std::optional<std::string> verifyFrame(const std::string& secret, const std::string& nonce, Direction d,
                                       std::uint64_t seq, const std::string& body);
// The payload of an unsigned body (challenge, refused); nullopt for a signed one or a short body.
std::optional<std::string> unsignedPayload(const std::string& body);
// The length a 4-byte header announces.
std::uint32_t frameLength(const unsigned char header[4]);

} // namespace ddpdesk::protocol::node_link
