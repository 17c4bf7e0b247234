import Replay

/// Where a controller stands in the container tree, as a key that sorts a container before its children.
enum TreeOrder {
    /// `[0 or 1, root serial, …, parent serial, serial]`: 0 when the chain of parents and presenters reaches the
    /// window's root, 1 otherwise (outside the window, or a place the trace never gave). Sorting keys
    /// lexicographically lists the window's tree depth first, each container before its children and presented
    /// controllers, siblings by serial.
    static func key(of serial: UInt32, in state: ReplayState) -> [UInt32] {
        var chain: [UInt32] = [serial]
        var current = serial
        for _ in 0..<64 {
            guard let c = state.controllers[current], let up = c.parent.serial ?? c.presentingController,
                !chain.contains(up)
            else { break }
            chain.append(up)
            current = up
        }
        let isInWindow = state.windowRoot == chain.last
        return [isInWindow ? 0 : 1] + chain.reversed()
    }
}
