// The listening socket a server accepts connections on.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listening TCP socket: where a server accepts connections.
final class Listener {
    private var descriptor: Int32
    /// The port it listens on: the one asked for, or the one the system picked for 0.
    let port: Int

    private init(descriptor: Int32, port: Int) {
        self.descriptor = descriptor
        self.port = port
    }

    deinit { close() }

    /// Listens on `host` (an IP literal or a name) and `port`; 0 picks a free port.
    static func open(host: String, port: Int) throws(HTTPError) -> Listener {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamType
        hints.ai_flags = AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw .cannotResolve(host: host)
        }
        defer { freeaddrinfo(list) }
        var lastError = HTTPError.cannotListen(address: "\(host):\(port)", reason: "no address to listen on")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let descriptor = socket(
                address.pointee.ai_family, address.pointee.ai_socktype | closedOnExec, address.pointee.ai_protocol)
            guard descriptor >= 0 else { continue }
            markClosedOnExec(descriptor)
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            guard bind(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0,
                listen(descriptor, 512) == 0
            else {
                lastError =
                    errno == EADDRINUSE
                    ? .addressInUse("\(host):\(port)")
                    : .cannotListen(address: "\(host):\(port)", reason: Socket.lastErrorText())
                _ = systemClose(descriptor)
                continue
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let bound = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            var actual = port
            if bound == 0 {
                let family = Int32(storage.ss_family)
                if family == AF_INET {
                    actual = withUnsafePointer(to: &storage) {
                        $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                            Int(UInt16(bigEndian: $0.pointee.sin_port))
                        }
                    }
                } else if family == AF_INET6 {
                    actual = withUnsafePointer(to: &storage) {
                        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                            Int(UInt16(bigEndian: $0.pointee.sin6_port))
                        }
                    }
                }
            }
            return Listener(descriptor: descriptor, port: actual)
        }
        throw lastError
    }

    /// The file descriptor, for polling.
    var pollDescriptor: Int32 { descriptor }

    /// A connection waiting to be accepted, or nil when none is.
    /// The next connection waiting, or nil when none is; throws when the system cannot
    /// take one now (out of descriptors), which leaves it waiting.
    func accept() throws(HTTPError) -> Socket? {
        while true {
            let connection = systemAccept(descriptor)
            if connection >= 0 {
                #if canImport(Darwin)
                    var on: Int32 = 1
                    setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
                #endif
                _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
                var one: Int32 = 1
                setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return Socket(adopting: connection)
            }
            if errno == EINTR || errno == ECONNABORTED { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            throw .system("cannot accept a connection: \(Socket.lastErrorText())")
        }
    }

    func close() {
        if descriptor >= 0 {
            _ = systemClose(descriptor)
            descriptor = -1
        }
    }
}
