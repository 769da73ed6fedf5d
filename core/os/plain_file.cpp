// The portable half of plain_file.h: ownership of the handle. Opening, reading and writing are the OS
// halves'.
#include "os/plain_file.h"

#include <utility>

namespace ddpdesk::os {

PlainFile::~PlainFile() {
    close();
}

PlainFile::PlainFile(PlainFile&& other) noexcept
    : m_handle(other.m_handle), m_status(other.m_status), m_error(std::move(other.m_error)) {
    other.m_handle = kNone;
}

PlainFile& PlainFile::operator=(PlainFile&& other) noexcept {
    if (this != &other) {
        close();
        m_handle = other.m_handle;
        m_status = other.m_status;
        m_error = std::move(other.m_error);
        other.m_handle = kNone;
    }
    return *this;
}

} // namespace ddpdesk::os
