extension Cancellation {
    /// The event that showed the cancellation (the current one), as findings cite it.
    func related(_ replay: ReplayView) -> RelatedEvent {
        let name = replay.name(of: controller)
        return switch cause {
        case .viewWillAppear:
            replay.related("disappearance cancelled: \(name) viewWillAppear at \(replay.time(replay.timestamp)) without viewDidDisappear")
        case .interactiveTransitionCancel:
            replay.related("interactive transition cancelled at \(replay.time(replay.timestamp)): \(name) stays on screen without viewDidDisappear")
        }
    }
}
