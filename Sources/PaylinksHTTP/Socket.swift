// The sockets of the HTTP client and server, and the C library's socket calls named once.
#if canImport(Glibc)
    import Glibc
    let streamType = Int32(SOCK_STREAM.rawValue)
    /// Added to a socket's type: closed in a program this one starts (`serve -- CMD`),
    /// from the moment it is made.
    let closedOnExec = Int32(SOCK_CLOEXEC.rawValue)
    private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Musl)
    import Musl
    let streamType = SOCK_STREAM
    let closedOnExec = SOCK_CLOEXEC
    private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
    import Darwin
    let streamType = SOCK_STREAM
    /// Darwin has no SOCK_CLOEXEC: its sockets are marked once made (``markClosedOnExec(_:)``).
    let closedOnExec = Int32(0)
    private let noSignal = Int32(0)
#endif

/// A connected TCP socket with deadlines on every wait.
package final class Socket {
    /// The file descriptor; -1 once closed.
    private(set) var descriptor: Int32
    /// Where `read` receives, kept between reads.
    private var chunk = [UInt8](repeating: 0, count: 16_384)

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Connects to `host` (a name or an IP literal) on `port`, trying each address the
    /// resolver gives, within `timeout` seconds.
    package static func connect(host: String, port: Int, timeout: Double) throws(HTTPError) -> Socket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamType
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw .cannotResolve(host: host)
        }
        defer { freeaddrinfo(list) }
        var lastError = HTTPError.connectionRefused("\(host):\(port)")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let descriptor = socket(
                address.pointee.ai_family, address.pointee.ai_socktype | closedOnExec, address.pointee.ai_protocol)
            guard descriptor >= 0 else {
                // Out of descriptors, say: not a refusal by the server.
                lastError = .system("cannot open a socket: \(Self.lastError())")
                continue
            }
            let socket = Socket(descriptor: descriptor)
            markClosedOnExec(descriptor)
            #if canImport(Darwin)
                var on: Int32 = 1
                setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            var one: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            if systemConnect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return socket }
            guard errno == EINPROGRESS else {
                lastError = errno == ECONNREFUSED ? .connectionRefused("\(host):\(port)") : .system(Self.lastError())
                continue
            }
            do {
                try socket.wait(for: Int16(POLLOUT), until: Deadline(seconds: timeout), phase: "connecting")
            } catch {
                lastError = error
                continue
            }
            var status: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &status, &size)
            if status == 0 { return socket }
            lastError =
                status == ECONNREFUSED
                ? .connectionRefused("\(host):\(port)") : .system(String(cString: strerror(status)))
        }
        throw lastError
    }

    /// Writes all of `bytes` before `deadline`.
    func write(_ bytes: [UInt8], until deadline: Deadline) throws(HTTPError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, noSignal)
            }
            if sent >= 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try wait(for: Int16(POLLOUT), until: deadline, phase: "sending the request")
            } else if errno == EPIPE || errno == ECONNRESET {
                throw .connectionClosed
            } else {
                throw .system(Self.lastError())
            }
        }
    }

    /// Reads what has arrived, waiting until `deadline` for something; an empty result
    /// means the peer closed the connection.
    func read(into buffer: inout [UInt8], until deadline: Deadline, phase: String) throws(HTTPError) -> Int {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return count
            }
            if count == 0 { return 0 }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try wait(for: Int16(POLLIN), until: deadline, phase: phase)
            } else if errno == ECONNRESET {
                return 0
            } else {
                throw .system(Self.lastError())
            }
        }
    }

    /// Waits up to `milliseconds` until any of `sockets` has bytes to read or has closed;
    /// the indexes of those that have, in order.
    package static func readable(_ sockets: [Socket], milliseconds: Int) -> [Int] {
        readable(descriptors: sockets.map(\.descriptor), milliseconds: milliseconds)
    }

    /// Waits up to `milliseconds` until any of `descriptors` has bytes to read, a
    /// connection to accept, or has closed; the indexes of those that have, in order.
    static func readable(descriptors: [Int32], milliseconds: Int) -> [Int] {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&entries, nfds_t(entries.count), Int32(max(0, min(milliseconds, Int(Int32.max)))))
        guard ready > 0 else { return [] }
        return entries.indices.filter { entries[$0].revents != 0 }
    }

    /// What `poll` saw of one descriptor.
    struct Readiness {
        /// Bytes to read, a connection to accept, or the peer's close.
        var readable: Bool
        /// Room to write.
        var writable: Bool
    }

    /// Waits up to `milliseconds` until any of `watched` is ready: each descriptor with
    /// whether to watch it for reading and for writing; what each became, in order.
    static func ready(_ watched: [(descriptor: Int32, read: Bool, write: Bool)], milliseconds: Int) -> [Readiness] {
        var entries = watched.map { entry in
            pollfd(
                fd: entry.descriptor, events: Int16(entry.read ? POLLIN : 0) | Int16(entry.write ? POLLOUT : 0),
                revents: 0)
        }
        let count = poll(&entries, nfds_t(entries.count), Int32(max(0, min(milliseconds, Int(Int32.max)))))
        guard count > 0 else { return watched.map { _ in Readiness(readable: false, writable: false) } }
        let failed = Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL)
        return entries.map { entry in
            Readiness(
                readable: entry.revents & (Int16(POLLIN) | failed) != 0,
                writable: entry.revents & (Int16(POLLOUT) | failed) != 0)
        }
    }

    /// Sends what the connection takes now, without waiting: the count sent (0 when it
    /// takes nothing now), or nil when the peer is gone.
    func writeAvailable(_ bytes: ArraySlice<UInt8>) -> Int? {
        while true {
            let sent = bytes.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress, buffer.count, noSignal | Int32(MSG_DONTWAIT))
            }
            if sent >= 0 { return sent }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : nil
        }
    }

    /// Reads what has arrived without waiting: the count read, 0 when the peer closed
    /// the connection, nil when nothing is there yet.
    func readAvailable(into buffer: inout [UInt8]) -> Int? {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return count
            }
            if count == 0 { return 0 }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? nil : 0
        }
    }

    package func close() {
        if descriptor >= 0 {
            _ = systemClose(descriptor)
            descriptor = -1
        }
    }

    /// Closes the connection and drops what the system still holds to send on it: the
    /// peer sees a reset at once, not the end of the data after the rest of it.
    func abort() {
        if descriptor >= 0 {
            var option = linger()
            option.l_onoff = 1
            option.l_linger = 0
            _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        }
        close()
    }

    private func wait(for events: Int16, until deadline: Deadline, phase: String) throws(HTTPError) {
        while true {
            let remaining = deadline.remainingMilliseconds()
            guard remaining > 0 else { throw .timedOut(phase: phase, seconds: deadline.seconds) }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(remaining, Int(Int32.max))))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw .system(Self.lastError()) }
        }
    }

    private static func lastError() -> String {
        lastErrorText()
    }

    /// The system's words for the last error, in lower case.
    static func lastErrorText() -> String {
        String(cString: strerror(errno)).lowercased()
    }

    /// A connected socket made by accepting one.
    convenience init(adopting descriptor: Int32) {
        self.init(descriptor: descriptor)
    }
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    // `connect` and `close` are shadowed by Socket's and Listener's methods; name the C functions once.
    func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        connect(descriptor, address, length)
    }
    func systemClose(_ descriptor: Int32) -> Int32 {
        close(descriptor)
    }
    /// Accepts a connection, closed in a program this one starts. It is marked once made:
    /// the one program paylinks starts beside a server (`serve -- CMD`) is started before
    /// the server accepts any.
    func systemAccept(_ descriptor: Int32) -> Int32 {
        let connection = accept(descriptor, nil, nil)
        if connection >= 0 { _ = fcntl(connection, F_SETFD, FD_CLOEXEC) }
        return connection
    }
    /// Marks a descriptor closed in a program this one starts, where the system could not
    /// make it so from the start (Darwin, which has no SOCK_CLOEXEC).
    func markClosedOnExec(_ descriptor: Int32) {
        #if canImport(Darwin)
            if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        #endif
    }
#endif
