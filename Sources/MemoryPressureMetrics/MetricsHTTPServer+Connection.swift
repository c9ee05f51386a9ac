import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension MetricsHTTPServer {
    /// What reading a request head gave.
    enum ReadOutcome {
        /// The head, without the blank line that ends it.
        case head(ArraySlice<UInt8>)
        /// The client closed before sending anything.
        case closed
        /// The client closed in the middle of its head.
        case incomplete
        /// The head is longer than the limit.
        case tooLarge
        /// The head did not arrive in time.
        case timedOut
    }

    /// One accepted socket: reads a request head under the limits and writes one response.
    struct Connection {
        let fd: Int32
        let limits: Limits

        /// Seconds on a monotonic clock.
        private static func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }

        /// Waits until `fd` is ready for `events` or `deadline` passes; false on timeout or error.
        private func wait(for events: Int32, until deadline: Double) -> Bool {
            while true {
                let left = deadline - Self.now()
                guard left > 0 else { return false }
                var waiting = pollfd(fd: fd, events: Int16(events), revents: 0)
                let ready = poll(&waiting, 1, Int32(min(left * 1000, 1000).rounded(.up)))
                if ready > 0 { return true }
                if ready < 0 && errno != EINTR { return false }
            }
        }

        /// Reads until the blank line that ends the head (CRLF CRLF, or LF LF), however the bytes
        /// are split across reads, within ``Limits/maximumRequestBytes`` and ``Limits/readTimeout``.
        ///
        /// - Complexity: O(bytes read)
        func readHead() -> ReadOutcome {
            let deadline = Self.now() + limits.readTimeout
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            var scanned = 0
            while true {
                if let end = Self.endOfHead(in: buffer, from: scanned) { return .head(buffer[..<end]) }
                scanned = max(0, buffer.count - 3)
                guard buffer.count < limits.maximumRequestBytes else { return .tooLarge }
                guard wait(for: Int32(POLLIN), until: deadline) else { return .timedOut }
                let wanted = min(chunk.count, limits.maximumRequestBytes - buffer.count)
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, wanted, 0) }
                if count == 0 { return buffer.isEmpty ? .closed : .incomplete }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
                    return buffer.isEmpty ? .closed : .incomplete
                }
                buffer.append(contentsOf: chunk[..<count])
            }
        }

        /// Where the head ends in `buffer` (the index of its blank line), searching from `start`.
        static func endOfHead(in buffer: [UInt8], from start: Int) -> Int? {
            var index = start
            while index < buffer.count {
                if buffer[index] == UInt8(ascii: "\n") {
                    if index + 1 < buffer.count && buffer[index + 1] == UInt8(ascii: "\n") { return index + 1 }
                    if index + 2 < buffer.count && buffer[index + 1] == UInt8(ascii: "\r")
                        && buffer[index + 2] == UInt8(ascii: "\n")
                    {
                        return index + 1
                    }
                }
                index += 1
            }
            return nil
        }

        /// Writes a complete response; `headOnly` leaves the body out but keeps its length.
        func respond(
            status: Int, reason: String, body: [UInt8], contentType: String = "text/plain; charset=utf-8",
            headOnly: Bool = false, extraFields: String = ""
        ) {
            var response = Array(
                ("HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
                    + "Connection: close\r\n\(extraFields)\r\n").utf8)
            if !headOnly { response += body }
            writeAll(response)
        }

        /// Sends all of `bytes`, across partial sends, within ``Limits/writeTimeout``.
        private func writeAll(_ bytes: [UInt8]) {
            let deadline = Self.now() + limits.writeTimeout
            var sent = 0
            #if canImport(Glibc)
                let flags = Int32(MSG_NOSIGNAL)
            #else
                let flags: Int32 = 0
            #endif
            while sent < bytes.count {
                guard wait(for: Int32(POLLOUT), until: deadline) else { return }
                let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, flags) }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
                    return
                }
                sent += count
            }
        }

        /// Ends the response (FIN), reads briefly what the client still sends so that closing does
        /// not reset the connection before it has read the response, and closes the socket.
        func finish() {
            shutdown(fd, Int32(SHUT_WR))
            let deadline = Self.now() + 0.2
            var chunk = [UInt8](repeating: 0, count: 4096)
            var drained = 0
            while drained < 65536 && wait(for: Int32(POLLIN), until: deadline) {
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                drained += count
            }
            _ = close(fd)
        }
    }
}
