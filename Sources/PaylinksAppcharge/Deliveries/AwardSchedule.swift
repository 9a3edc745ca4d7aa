/// How Appcharge delivers a Grant Award Callback: at once, then again after 10 s and after
/// 10 s more while it is not granted, each attempt allowed 10 s.
public enum AwardSchedule {
    /// When each attempt is sent, after the one before, in milliseconds.
    public static let retryDelays = [0, 10_000, 10_000]
    /// How long an attempt may take, in seconds.
    public static let attemptTimeout = 10.0
}
