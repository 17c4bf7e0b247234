import Testing
@testable import LifetraceCLI
