// A c10d FileStore file read without c10d (protocol/file_store_reader.h), as the doctor and the worker's
// --inspect-store read whatever is at the store's path: the input is the file's bytes.
#include "fuzz_support.h"

#include "protocol/file_store_reader.h"

using namespace ddpdesk;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::fs::path file = fuzz::scratch() / "store";
    fuzz::writeFile(file, std::string_view(reinterpret_cast<const char*>(data), size));
    const auto contents = protocol::readFileStore(file);
    contents.proven();
    return 0;
}
