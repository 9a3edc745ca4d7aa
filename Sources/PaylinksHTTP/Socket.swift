// The sockets, clocks and threads of the HTTP client: the one file of this target that
// talks to the C library.
#if canImport(Glibc)
    import Glibc
    private let streamType = Int32(SOCK_STREAM.rawValue)
    private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Musl)
    import Musl
    private let streamType = SOCK_STREAM
    private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
    import Darwin
    private let streamType = SOCK_STREAM
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
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard descriptor >= 0 else {
                // Out of descriptors, say: not a refusal by the server.
                lastError = .system("cannot open a socket: \(Self.lastError())")
                continue
            }
            let socket = Socket(descriptor: descriptor)
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
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard descriptor >= 0 else { continue }
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

/// A moment on the monotonic clock by which a wait must end.
package struct Deadline {
    /// How long the wait was allowed, for messages.
    let seconds: Double
    private let end: Int

    init(seconds: Double) {
        self.seconds = seconds
        end = Deadline.nowMilliseconds() + Int(seconds * 1000)
    }

    func remainingMilliseconds() -> Int {
        end - Deadline.nowMilliseconds()
    }

    /// Microseconds on the monotonic clock.
    package static func nowMicroseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int(time.tv_sec) * 1_000_000 + Int(time.tv_nsec) / 1000
    }

    /// Milliseconds on the monotonic clock.
    package static func nowMilliseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int(time.tv_sec) * 1000 + Int(time.tv_nsec) / 1_000_000
    }
}

/// The wall clock in milliseconds since 1970, for the `t` of a signature.
public func wallClockMilliseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int(time.tv_sec) * 1000 + Int(time.tv_nsec) / 1_000_000
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    // `connect` and `close` are shadowed by the methods above; name the C functions once.
    private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        connect(descriptor, address, length)
    }
    private func systemClose(_ descriptor: Int32) -> Int32 {
        close(descriptor)
    }
    private func systemAccept(_ descriptor: Int32) -> Int32 {
        accept(descriptor, nil, nil)
    }
#endif

/// Sleeps for real, for `--award-wait real` where nothing can stop the pause (a command
/// that ends with its deliveries); a queue's pauses wait on its ``DeliveryStop`` instead.
package func pause(milliseconds: Int) {
    var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}

/// A lock and a condition that threads wait on under it, each wait bounded if need be on
/// the monotonic clock (a change of the wall clock neither cuts a wait short nor stretches
/// it): what a pause that a stop must end, and a writer waiting for lines, wait on.
package final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// A new lock and condition.
    package init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition.initialize(to: pthread_cond_t())
        #if canImport(Darwin)
            // Darwin waits a relative time instead (pthread_cond_timedwait_relative_np).
            pthread_cond_init(condition, nil)
        #else
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    package func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits, holding the lock (call it inside ``withLock(_:)``), until `satisfied()` holds
    /// or `milliseconds` have passed (nil: however long it takes); whether it holds.
    /// `satisfied()` is asked under the lock, first at once and then after each
    /// ``broadcast()`` (or spurious wake-up).
    package func wait(milliseconds: Int?, until satisfied: () -> Bool) -> Bool {
        guard let milliseconds else {
            while !satisfied() { pthread_cond_wait(condition, mutex) }
            return true
        }
        // Clamped to about 35 years, so that the sum cannot overflow.
        let deadline = Deadline.nowMilliseconds() + min(max(0, milliseconds), 1 << 40)
        while !satisfied() {
            let remaining = deadline - Deadline.nowMilliseconds()
            guard remaining > 0 else { return false }
            #if canImport(Darwin)
                var interval = timespec(tv_sec: remaining / 1000, tv_nsec: (remaining % 1000) * 1_000_000)
                pthread_cond_timedwait_relative_np(condition, mutex, &interval)
            #else
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                let nanoseconds = Int(now.tv_nsec) + (remaining % 1000) * 1_000_000
                var end = timespec(
                    tv_sec: now.tv_sec + remaining / 1000 + nanoseconds / 1_000_000_000,
                    tv_nsec: nanoseconds % 1_000_000_000)
                pthread_cond_timedwait(condition, mutex, &end)
            #endif
        }
        return true
    }

    /// Wakes every thread waiting, so that each asks again whether what it waits for holds.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

/// A mutual-exclusion lock, for what threads share.
final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() {
        mutex.initialize(to: pthread_mutex_t())
        #if canImport(Glibc)
            // A thread that finds it held spins a little before it sleeps: the holders here
            // keep it for microseconds, less than a sleep and a wake-up cost.
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
            pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
        #else
            pthread_mutex_init(mutex, nil)
        #endif
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A pipe that wakes a thread waiting in `poll`: another thread writes a byte, the waiting
/// one polls the read end and drains it.
final class Waker: @unchecked Sendable {
    /// The end to poll for reading.
    let descriptor: Int32
    private let writeEnd: Int32

    /// A new pipe, or nil when the system has no descriptor for one.
    init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        _ = systemClose(descriptor)
        _ = systemClose(writeEnd)
    }

    /// Wakes the thread; a pipe already full has woken it already.
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Takes every byte written so far.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}

/// The processors online: how many threads can run at once.
func onlineProcessors() -> Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}

/// Work done on a thread of its own while the caller goes on; ``join()`` waits for it
/// and returns its result.
///
/// The work takes what it captures with it: until ``join()`` returns, the caller must not
/// touch anything the work uses. That hand-over is what the checked `Sendable` rules
/// cannot see, hence `@unchecked`.
package final class BackgroundWork<Result>: @unchecked Sendable {
    private var work: (() -> Result)?
    private var result: Result?
    #if canImport(Darwin)
        private var thread: pthread_t?
    #else
        private var thread = pthread_t()
    #endif
    private var started = false
    /// Guards `finished`, the one thing both threads touch before the join.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var finished = false

    private init(_ work: @escaping () -> Result) {
        self.work = work
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Whether the work has ended, so that ``join()`` returns at once.
    package var isFinished: Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return finished
    }

    /// Starts `work` on a new thread, or runs it at once when no thread can be made.
    package static func start(_ work: @escaping () -> Result) -> BackgroundWork {
        if let started = thread(work) { return started }
        let box = BackgroundWork(work)
        box.run()
        return box
    }

    /// Starts `work` on a new thread; nil, the work not run, when no thread can be made:
    /// for work that must not run on the caller's thread (it waits for the caller).
    package static func thread(_ work: @escaping () -> Result) -> BackgroundWork? {
        let box = BackgroundWork(work)
        let context = Unmanaged.passRetained(box).toOpaque()
        box.started = pthread_create(&box.thread, nil, runBackgroundWork, context) == 0
        guard box.started else {
            Unmanaged<BackgroundWork>.fromOpaque(context).release()
            return nil
        }
        return box
    }

    /// Runs the work, on whichever thread calls it.
    fileprivate func run() {
        result = work?()
        work = nil
        pthread_mutex_lock(lock)
        finished = true
        pthread_mutex_unlock(lock)
    }

    /// Waits for the work to end; its result.
    package func join() -> Result {
        if started {
            #if canImport(Darwin)
                if let thread { pthread_join(thread, nil) }
            #else
                pthread_join(thread, nil)
            #endif
            started = false
        }
        guard let result else { preconditionFailure("joined work that never ran") }
        return result
    }
}

/// The body of a background thread: `context` is a retained ``BackgroundWork``.
private protocol BackgroundRunnable: AnyObject {
    func runInBackground()
}

extension BackgroundWork: BackgroundRunnable {
    fileprivate func runInBackground() { run() }
}

#if canImport(Darwin)
    private func runBackgroundWork(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        (Unmanaged<AnyObject>.fromOpaque(context).takeRetainedValue() as? any BackgroundRunnable)?.runInBackground()
        return nil
    }
#else
    private func runBackgroundWork(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let context else { return nil }
        (Unmanaged<AnyObject>.fromOpaque(context).takeRetainedValue() as? any BackgroundRunnable)?.runInBackground()
        return nil
    }
#endif
