// The `.ddpdesk-output` mark (protocol/output_mark.h): the input is the mark's bytes in a run folder, as
// anyone who can write to OUT may leave them. Read (markedOutputs, outputState for a name it lists and for
// the worker's checkpoint), then extended as the launcher and the worker do (markOutputs rewrites it).
#include "fuzz_support.h"

#include "protocol/output_mark.h"

using namespace ddpdesk;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::fs::path dir = fuzz::freshFolder("out");
    fuzz::writeFile(dir / protocol::kOutputMarkName,
                    std::string_view(reinterpret_cast<const char*>(data), size));
    fuzz::writeFile(dir / "checkpoint.pt", "x");
    const auto names = protocol::markedOutputs(dir);
    protocol::outputState(dir, "checkpoint.pt");
    for (std::size_t i = 0; i < names.size() && i < 4; ++i)
        protocol::outputState(dir, names[i]);
    protocol::markOutputs(dir, {"model.pt", "checkpoint.pt"});
    protocol::markedOutputs(dir);
    return 0;
}
