import Testing
@testable import Simulator
