/// What was recorded of a sheet's current swipe-down, so the delegate's calls and the transition coordinator
/// (both report it) record each step once.
struct SheetDismissal {
    var willDismissRecorded = false
    var didDismissRecorded = false
}
