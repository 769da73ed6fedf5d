// A rank's output, line by line: the protocol's events, log text, a script's loss lines.
#include "launch/run/rank_line_reader.h"

#include "launch/run/script_instrument.h"
#include "protocol/json_fields.h"
#include "protocol/telemetry.h"

#include <QString>

namespace ddpdesk::launch {

RankLineReader::RankLineReader(const RunConfig& config, RunModel& model, RecordFn record)
    : m_config(config), m_model(model), m_record(std::move(record)) {}

void RankLineReader::beginAttempt() {
    m_ranks.clear();
    m_ranks.resize(size_t(m_config.nproc));
    if (m_config.isScript())
        for (Rank& r : m_ranks)
            r.parser = std::make_unique<ScriptOutputParser>(m_config.effectiveLossRegex());
}

void RankLineReader::onLine(int index, const QByteArray& raw, bool isStderr) {
    QByteArray line = raw;
    if (line.endsWith('\r')) line.chop(1);
    const int rank = m_config.globalRank(index);
    Rank& r = m_ranks[size_t(index)];
    if (!isStderr && (!m_config.isScript() || m_moduleEvents)) {
        auto e = protocol::parseLine(std::string_view(line.constData(), size_t(line.size())));
        // A script's stdout is its own text; only the instrumentation module's events are taken as events
        // there.
        if (e && m_config.isScript() &&
            protocol::JsonFields(e->body).text(protocol::field::Source) != kInstrumentSourceTag)
            e.reset();
        if (e && m_config.isScript()) r.instrumented = true;
        if (e && wentBack(index, r, *e)) return;
        if (e) {
            if (e->rank < 0) e->body[protocol::field::Rank] = rank;
            m_record(e->body);
            m_model.applyEvent(index, *e);
            return;
        }
    }
    const QString text = QString::fromUtf8(line);
    nlohmann::json logEvent = protocol::makeEvent(protocol::ev::Log, rank);
    logEvent[protocol::field::Stream] = isStderr ? "stderr" : "stdout";
    logEvent[protocol::field::Text] = text.toStdString();
    m_record(logEvent);
    if (isStderr)
        m_model.appendStderr(index, text);
    else
        m_model.applyLine(index, line);
    // A script's loss may be on stdout or stderr (logging writes to stderr).
    if (r.parser && !r.instrumented) {
        if (auto step = r.parser->parse(rank, text)) {
            m_record(*step);
            if (auto e = protocol::parseLine(protocol::encodeLine(*step))) m_model.applyEvent(index, *e);
        }
    }
}

bool RankLineReader::wentBack(int index, Rank& r, const protocol::Event& e) {
    if (e.type != protocol::ev::Step) return false;
    const std::int64_t step = protocol::JsonFields(e.body).integer64(protocol::field::Step, -1);
    if (step < 0) return false;
    if (step >= r.lastStep) {
        r.lastStep = step;
        return false;
    }
    if (r.stepsWentBack++ == 0)
        m_model.appendNote(
            index, QStringLiteral("a step event said step %1 after step %2: dropped (a process the "
                                  "rank forked, such as a DataLoader worker, reporting a stale count)")
                       .arg(step)
                       .arg(r.lastStep));
    return true;
}

} // namespace ddpdesk::launch
