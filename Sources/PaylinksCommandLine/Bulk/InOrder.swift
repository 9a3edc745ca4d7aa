import PaylinksAppcharge

/// Checkouts of a load waiting to be written, in the order they ran, each with as many
/// answered deliveries as it needs: a checkout is written once its own have come back and
/// every checkout before it has been written. It holds no more than the load holds
/// unanswered, and the checkouts between: memory stays flat however many run.
struct InOrder<Checkout> {
    /// Each checkout, with how many deliveries it waits for.
    private var checkouts: [(checkout: Checkout, needs: Int)] = []
    private var checkoutsStart = 0
    private var answers: [[DeliveryAttempt]] = []
    private var answersStart = 0

    /// Checkouts waiting.
    var count: Int { checkouts.count - checkoutsStart }

    /// Checkouts and answers kept, written or not: what it holds.
    var held: Int { checkouts.count + answers.count }

    /// Adds `checkout`, the last run, which waits for `needs` deliveries.
    mutating func append(_ checkout: Checkout, needs: Int) {
        checkouts.append((checkout, needs))
    }

    /// Takes `answered`, the attempts of the deliveries answered next in order; the
    /// checkouts now complete, in order, each with its deliveries' attempts.
    mutating func take(_ answered: [[DeliveryAttempt]]) -> [(Checkout, ArraySlice<[DeliveryAttempt]>)] {
        answers += answered
        var complete: [(Checkout, ArraySlice<[DeliveryAttempt]>)] = []
        while checkoutsStart < checkouts.count {
            let (checkout, needs) = checkouts[checkoutsStart]
            guard answers.count - answersStart >= needs else { break }
            complete.append((checkout, answers[answersStart..<answersStart + needs]))
            answersStart += needs
            checkoutsStart += 1
        }
        // What was written is dropped once it is half of what is kept.
        if checkoutsStart * 2 >= checkouts.count {
            checkouts.removeFirst(checkoutsStart)
            checkoutsStart = 0
        }
        if answersStart * 2 >= answers.count {
            answers.removeFirst(answersStart)
            answersStart = 0
        }
        return complete
    }
}
