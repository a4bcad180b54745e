//! The broker's consumer groups now (state, members, their partitions, committed offsets), through
//! librdkafka's admin API: rust-rdkafka's classic-only calls show a KIP-848 group as `Dead`
//! (docs/en/internals/broker-questions.md, "Consumer groups"). What leaves is owned data, copied
//! before librdkafka frees its memory; `Drop` destroys each queue, options and event on every path.

use std::ffi::{c_char, CStr, CString};
use std::fmt;
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Result};
use rdkafka::bindings as rd;
use rdkafka::client::{Client, ClientContext};
use rdkafka::error::RDKafkaErrorCode;

/// A group's state as librdkafka names it. A `consumer` group that is assigning or reconciling
/// has no name in librdkafka's list: it is `Unknown`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Unknown,
    PreparingRebalance,
    CompletingRebalance,
    Stable,
    Dead,
    Empty,
}

impl State {
    fn from_raw(state: rd::rd_kafka_consumer_group_state_t) -> State {
        use rd::rd_kafka_consumer_group_state_t::*;
        match state {
            RD_KAFKA_CONSUMER_GROUP_STATE_PREPARING_REBALANCE => State::PreparingRebalance,
            RD_KAFKA_CONSUMER_GROUP_STATE_COMPLETING_REBALANCE => State::CompletingRebalance,
            RD_KAFKA_CONSUMER_GROUP_STATE_STABLE => State::Stable,
            RD_KAFKA_CONSUMER_GROUP_STATE_DEAD => State::Dead,
            RD_KAFKA_CONSUMER_GROUP_STATE_EMPTY => State::Empty,
            _ => State::Unknown,
        }
    }
}

pub type TopicPartition = (String, i32);

/// A member of a group and the partitions it owns. A `consumer` group's member also has a
/// target assignment: what the broker has decided it will own once it has reconciled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Member {
    pub assigned: Vec<TopicPartition>,
    pub target: Vec<TopicPartition>,
}

/// A group with its members. While a classic group rebalances, Kafka 4.3.1 shows each member's
/// last partitions, and none for a member that is joining.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub id: String,
    pub state: State,
    pub members: Vec<Member>,
}

/// Every classic and `consumer` group on the cluster (every broker is asked): id and state.
pub fn list<C: ClientContext>(
    client: &Client<C>,
    timeout: Duration,
) -> Result<Vec<(String, State)>> {
    use rd::rd_kafka_consumer_group_type_t::*;
    // Share and streams groups are not consumer groups: describing one would fail.
    let kinds = [
        RD_KAFKA_CONSUMER_GROUP_TYPE_CLASSIC,
        RD_KAFKA_CONSUMER_GROUP_TYPE_CONSUMER,
    ];
    let answer = (
        rd::rd_kafka_admin_op_t::RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS,
        rd::RD_KAFKA_EVENT_LISTCONSUMERGROUPS_RESULT,
        "list the consumer groups",
    );
    // SAFETY: librdkafka copies the array; a non-null error is ours to read and destroy, once;
    // the rest as every `send` (see `ask`).
    let send = |rk, options, queue| unsafe {
        let error = rd::rd_kafka_AdminOptions_set_match_consumer_group_types(
            options,
            kinds.as_ptr(),
            kinds.len(),
        );
        take_error(error, "cannot ask for the consumer groups")?;
        rd::rd_kafka_ListConsumerGroups(rk, options, queue);
        Ok(())
    };
    // SAFETY: as every `read` (see `ask`).
    ask(client, answer, timeout, send, |event| unsafe {
        let result = rd::rd_kafka_event_ListConsumerGroups_result(event);
        // A broker that did not answer leaves groups unlisted: a partial list would be a wrong
        // answer to "does anyone read this topic", so it is an error.
        let mut count = 0;
        let errors = rd::rd_kafka_ListConsumerGroups_result_errors(result, &mut count);
        if let Some(error) = slice(errors, count).first() {
            refused(*error, "cannot list every consumer group")?;
        }
        let valid = rd::rd_kafka_ListConsumerGroups_result_valid(result, &mut count);
        Ok(slice(valid, count)
            .iter()
            .map(|listing| {
                let id = text(rd::rd_kafka_ConsumerGroupListing_group_id(*listing));
                (id, State::from_raw(rd::rd_kafka_ConsumerGroupListing_state(*listing)))
            })
            .collect())
    })
}

/// The groups named `ids` with their members; a group that no longer exists is left out.
pub fn describe<C: ClientContext>(
    client: &Client<C>,
    ids: &[String],
    timeout: Duration,
) -> Result<Vec<Group>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let names = ids
        .iter()
        .map(|id| CString::new(id.as_str()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut pointers: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
    let answer = (
        rd::rd_kafka_admin_op_t::RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS,
        rd::RD_KAFKA_EVENT_DESCRIBECONSUMERGROUPS_RESULT,
        "describe the consumer groups",
    );
    let (ptrs, len) = (pointers.as_mut_ptr(), pointers.len());
    // SAFETY: `names` owns the strings `pointers` points to and lives past the call, which
    // copies each name (rd_strdup); the rest as every `send` (see `ask`).
    let send = |rk, options: *mut _, queue| unsafe {
        rd::rd_kafka_DescribeConsumerGroups(rk, ptrs, len, options, queue);
        Ok(())
    };
    // SAFETY: as every `read` (see `ask`).
    ask(client, answer, timeout, send, |event| unsafe {
        let mut groups = Vec::new();
        let gone = rd::rd_kafka_resp_err_t::RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND;
        let result = rd::rd_kafka_event_DescribeConsumerGroups_result(event);
        let mut count = 0;
        let described = rd::rd_kafka_DescribeConsumerGroups_result_groups(result, &mut count);
        for group in slice(described, count) {
            let id = text(rd::rd_kafka_ConsumerGroupDescription_group_id(*group));
            let error = rd::rd_kafka_ConsumerGroupDescription_error(*group);
            // Deleted since it was listed (or never there): nobody is in it.
            if !error.is_null() && rd::rd_kafka_error_code(error) == gone {
                continue;
            }
            refused(error, &format!("cannot describe consumer group {id}"))?;
            let members = (0..rd::rd_kafka_ConsumerGroupDescription_member_count(*group))
                .map(|i| rd::rd_kafka_ConsumerGroupDescription_member(*group, i))
                .filter(|member| !member.is_null())
                .map(|member| Member {
                    assigned: assignment(rd::rd_kafka_MemberDescription_assignment(member)),
                    target: assignment(rd::rd_kafka_MemberDescription_target_assignment(member)),
                })
                .collect();
            groups.push(Group {
                id,
                state: State::from_raw(rd::rd_kafka_ConsumerGroupDescription_state(*group)),
                members,
            });
        }
        Ok(groups)
    })
}

pub fn committed<C: ClientContext>(
    client: &Client<C>,
    id: &str,
    timeout: Duration,
) -> Result<Vec<(TopicPartition, i64)>> {
    let name = CString::new(id)?;
    // SAFETY: the name is copied into the new object; no partitions (null) asks for all.
    let mut wanted = Owned::new(
        unsafe { rd::rd_kafka_ListConsumerGroupOffsets_new(name.as_ptr(), std::ptr::null()) },
        rd::rd_kafka_ListConsumerGroupOffsets_destroy,
    )?;
    let answer = (
        rd::rd_kafka_admin_op_t::RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS,
        rd::RD_KAFKA_EVENT_LISTCONSUMERGROUPOFFSETS_RESULT,
        "read the committed offsets",
    );
    let wanted: *mut _ = &mut wanted.0;
    // SAFETY: librdkafka takes exactly one group (a one-element array, alive for the call) and
    // copies it; the rest as every `send` (see `ask`).
    let send = |rk, options: *mut _, queue| unsafe {
        rd::rd_kafka_ListConsumerGroupOffsets(rk, wanted, 1, options, queue);
        Ok(())
    };
    // SAFETY: as every `read` (see `ask`).
    ask(client, answer, timeout, send, |event| unsafe {
        let mut offsets = Vec::new();
        let result = rd::rd_kafka_event_ListConsumerGroupOffsets_result(event);
        let mut count = 0;
        let results = rd::rd_kafka_ListConsumerGroupOffsets_result_groups(result, &mut count);
        for group in slice(results, count) {
            let what = format!("cannot read the committed offsets of group {id}");
            refused(rd::rd_kafka_group_result_error(*group), &what)?;
            let list = rd::rd_kafka_group_result_partitions(*group);
            // A partition asked for but never committed comes back with offset -1001.
            let kept = partitions(list).iter().filter(|p| p.offset >= 0);
            offsets.extend(kept.map(|p| ((text(p.topic), p.partition), p.offset)));
        }
        Ok(offsets)
    })
}

/// Sets `settings` (name, value) on group `id` (share.auto.offset.reset, ...) with
/// IncrementalAlterConfigs, one SET each, which names what it refuses: rust-rdkafka's AlterConfigs
/// sets nothing for a group yet answers success (docs/en/internals/share-groups.md).
pub fn set_configs<C: ClientContext>(
    client: &Client<C>,
    id: &str,
    settings: &[(String, String)],
    timeout: Duration,
) -> Result<()> {
    let name = CString::new(id)?;
    let group = rd::rd_kafka_ResourceType_t::RD_KAFKA_RESOURCE_GROUP;
    // SAFETY: the name is copied into the new object.
    let mut resource = Owned::new(
        unsafe { rd::rd_kafka_ConfigResource_new(group, name.as_ptr()) },
        rd::rd_kafka_ConfigResource_destroy,
    )?;
    for (key, value) in settings {
        let (key_c, value_c) = (CString::new(key.as_str())?, CString::new(value.as_str())?);
        // SAFETY: the resource is alive (owned above); both strings are copied.
        let error = unsafe {
            rd::rd_kafka_ConfigResource_add_incremental_config(
                resource.0,
                key_c.as_ptr(),
                rd::rd_kafka_AlterConfigOpType_t::RD_KAFKA_ALTER_CONFIG_OP_TYPE_SET,
                value_c.as_ptr(),
            )
        };
        let what = format!("cannot set {key}={value} on group {id}");
        // SAFETY: a non-null error is ours to read and destroy, once.
        unsafe { take_error(error, &what) }?;
    }
    let answer = (
        rd::rd_kafka_admin_op_t::RD_KAFKA_ADMIN_OP_INCREMENTALALTERCONFIGS,
        rd::RD_KAFKA_EVENT_INCREMENTALALTERCONFIGS_RESULT,
        "set the group's settings",
    );
    let resource: *mut _ = &mut resource.0;
    // SAFETY: a one-element array of a live resource, which librdkafka copies; the rest as
    // every `send` (see `ask`).
    let send = |rk, options: *mut _, queue| unsafe {
        rd::rd_kafka_IncrementalAlterConfigs(rk, resource, 1, options, queue);
        Ok(())
    };
    // SAFETY: as every `read` (see `ask`).
    ask(client, answer, timeout, send, |event| unsafe {
        let result = rd::rd_kafka_event_IncrementalAlterConfigs_result(event);
        let mut count = 0;
        let resources = rd::rd_kafka_IncrementalAlterConfigs_result_resources(result, &mut count);
        for r in slice(resources, count) {
            let code = rd::rd_kafka_ConfigResource_error(*r);
            if code != rd::rd_kafka_resp_err_t::RD_KAFKA_RESP_ERR_NO_ERROR {
                let why = error_text(code, rd::rd_kafka_ConfigResource_error_string(*r));
                let what = format!("the broker refused group {id}'s settings: {why}");
                return Err(refusal(code, what));
            }
        }
        Ok(())
    })
}

/// One admin request `op`, asked again while the coordinator loads (see [`patiently`]); its
/// result event, of type `kind`, goes to `read`. A request that fails as a whole (the broker
/// unreachable, the timeout passed) is the error "cannot `what`: ...".
///
/// `send`'s arguments outlive its call (the client is borrowed, the queue and options are the
/// request's) and librdkafka keeps none. `read`'s event is alive and of type `kind`, with all it
/// points to, past the call: `read` copies what it keeps into owned values.
fn ask<C: ClientContext, T>(
    client: &Client<C>,
    (op, kind, what): (rd::rd_kafka_admin_op_t, rd::rd_kafka_event_type_t, &str),
    timeout: Duration,
    send: impl Fn(*mut rd::rd_kafka_t, *mut AdminOptions, *mut Queue) -> Result<()>,
    read: impl Fn(*mut rd::rd_kafka_event_t) -> Result<T>,
) -> Result<T> {
    let rk = client.native_ptr();
    patiently(timeout, |timeout| {
        // SAFETY: the client's handle is alive while `client` is borrowed, and the queue, the
        // options and the event are destroyed (Drop: the event first, the queue last) before
        // this call returns.
        let queue = Owned::new(
            unsafe { rd::rd_kafka_queue_new(rk) },
            rd::rd_kafka_queue_destroy,
        )?;
        let options = Owned::new(
            unsafe { rd::rd_kafka_AdminOptions_new(rk, op) },
            rd::rd_kafka_AdminOptions_destroy,
        )?;
        let mut errstr = [0 as c_char; 512];
        let ms = i32::try_from(timeout.as_millis()).unwrap_or(i32::MAX);
        // SAFETY: options alive; errstr is a buffer of the size given.
        let err = unsafe {
            rd::rd_kafka_AdminOptions_set_request_timeout(
                options.0,
                ms,
                errstr.as_mut_ptr(),
                errstr.len(),
            )
        };
        if err != rd::rd_kafka_resp_err_t::RD_KAFKA_RESP_ERR_NO_ERROR {
            // SAFETY: librdkafka wrote a NUL-terminated message into errstr.
            bail!("cannot set the request timeout: {}", unsafe {
                text(errstr.as_ptr())
            });
        }
        send(rk, options.0, queue.0)?;
        // The request times out on its own after `timeout` and then still posts an event (an
        // error); the margin only guards against one that never comes.
        let ms = i32::try_from((timeout + Duration::from_secs(5)).as_millis()).unwrap_or(i32::MAX);
        // SAFETY: the queue is alive; a non-null event is ours to destroy.
        let event = unsafe { rd::rd_kafka_queue_poll(queue.0, ms) };
        if event.is_null() {
            bail!("cannot {what}: no answer within {} s", ms / 1000);
        }
        let event = Owned(event, rd::rd_kafka_event_destroy);
        // SAFETY: the event is alive; its error string lives as long as it.
        unsafe {
            let err = rd::rd_kafka_event_error(event.0);
            ensure!(
                err == rd::rd_kafka_resp_err_t::RD_KAFKA_RESP_ERR_NO_ERROR,
                "cannot {what}: {}",
                error_text(err, rd::rd_kafka_event_error_string(event.0))
            );
            if rd::rd_kafka_event_type(event.0) != kind {
                bail!("cannot {what}: librdkafka answered with another kind of event");
            }
        }
        read(event.0)
    })
}

type AdminOptions = rd::rd_kafka_AdminOptions_t;
type Queue = rd::rd_kafka_queue_t;

/// A broker's answer while it loads a group coordinator's state (just started, or a partition
/// of `__consumer_offsets` just moved to it): asked again shortly, it answers. librdkafka hands
/// these back (seen on a fresh Kafka 4.3.1: `ListConsumerGroups: Coordinator load in progress`).
#[derive(Debug)]
struct Loading(String);

impl fmt::Display for Loading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Loading {}

/// The error for a refusal `error` (none for null) of what `what` says.
///
/// # Safety
/// `error` is null or an error object alive for this call.
unsafe fn refused(error: *const rd::rd_kafka_error_t, what: &str) -> Result<()> {
    if error.is_null() {
        return Ok(());
    }
    let code = rd::rd_kafka_error_code(error);
    let message = error_text(code, rd::rd_kafka_error_string(error));
    Err(refusal(code, format!("{what}: {message}")))
}

/// The error for a refusal with `code`: [`Loading`] when asking again will do.
fn refusal(code: rd::rd_kafka_resp_err_t, message: String) -> anyhow::Error {
    if loading(code.into()) {
        Loading(message).into()
    } else {
        anyhow::anyhow!(message)
    }
}

/// Whether `code` refuses while a coordinator loads or moves (see [`Loading`]): krb-group's too.
pub fn loading(code: RDKafkaErrorCode) -> bool {
    use RDKafkaErrorCode::*;
    matches!(
        code,
        CoordinatorLoadInProgress | CoordinatorNotAvailable | NotCoordinator
    )
}

const LOADING_PAUSE: Duration = Duration::from_millis(200);

/// `ask`s with the time left of `timeout` until it answers, fails for a reason other than
/// [`Loading`], or the time is up (then the last refusal is the error).
fn patiently<T>(timeout: Duration, mut ask: impl FnMut(Duration) -> Result<T>) -> Result<T> {
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match ask(left.max(Duration::from_millis(1))) {
            Err(e) if e.is::<Loading>() && Instant::now() + LOADING_PAUSE < deadline => {
                std::thread::sleep(LOADING_PAUSE)
            }
            answer => return answer,
        }
    }
}

/// The partitions of a member's assignment (none for a null one: a classic member has no
/// target assignment).
///
/// # Safety
/// `assignment` is null or alive, with the partition list it holds, for this call.
unsafe fn assignment(assignment: *const rd::rd_kafka_MemberAssignment_t) -> Vec<TopicPartition> {
    if assignment.is_null() {
        return Vec::new();
    }
    partitions(rd::rd_kafka_MemberAssignment_partitions(assignment))
        .iter()
        .map(|p| (text(p.topic), p.partition))
        .collect()
}

/// The elements of a partition list (none for a null one): krb-share's too.
///
/// # Safety
/// `list` is null or alive, with its elements, as long as the slice is used.
pub(crate) unsafe fn partitions<'a>(
    list: *const rd::rd_kafka_topic_partition_list_t,
) -> &'a [rd::rd_kafka_topic_partition_t] {
    match list.as_ref() {
        Some(list) => slice(list.elems, usize::try_from(list.cnt).unwrap_or(0)),
        None => &[],
    }
}

/// An object librdkafka allocated for us, destroyed with `destroy` when dropped.
struct Owned<T>(*mut T, unsafe extern "C" fn(*mut T));

impl<T> Owned<T> {
    fn new(ptr: *mut T, destroy: unsafe extern "C" fn(*mut T)) -> Result<Owned<T>> {
        ensure!(!ptr.is_null(), "librdkafka could not make an admin request");
        Ok(Owned(ptr, destroy))
    }
}

impl<T> Drop for Owned<T> {
    fn drop(&mut self) {
        // SAFETY: non-null (checked before it was made), ours, destroyed once, here.
        unsafe { (self.1)(self.0) };
    }
}

/// The `count` elements at `ptr` as a slice (none for a null pointer).
///
/// # Safety
/// A non-null `ptr` points to `count` initialised elements that outlive the slice's use.
unsafe fn slice<'a, T>(ptr: *const T, count: usize) -> &'a [T] {
    if ptr.is_null() || count == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(ptr, count)
    }
}

/// A C string copied into a Rust one (empty for null): krb-share's too.
///
/// # Safety
/// A non-null `ptr` points to a NUL-terminated string alive for this call.
pub unsafe fn text(ptr: *const c_char) -> String {
    if ptr.is_null() {
        String::new()
    } else {
        CStr::from_ptr(ptr).to_string_lossy().into_owned()
    }
}

/// An error as krb shows Kafka's: librdkafka's message, or the code's name when it has none.
///
/// # Safety
/// As [`text`] for `message`.
unsafe fn error_text(code: rd::rd_kafka_resp_err_t, message: *const c_char) -> String {
    Some(text(message))
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| RDKafkaErrorCode::from(code).to_string())
}

/// A librdkafka error object (none for null) as the [`refused`] error of `what`, destroyed.
///
/// # Safety
/// `error` is null or an error object we own and no one else destroys.
unsafe fn take_error(error: *mut rd::rd_kafka_error_t, what: &str) -> Result<()> {
    let refusal = refused(error, what);
    rd::rd_kafka_error_destroy(error); // a no-op for null
    refusal
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdkafka::admin::AdminClient;
    use rdkafka::client::DefaultClientContext;
    use rdkafka::ClientConfig;

    /// A client of a broker that is not there: port 1 refuses every connection.
    fn nowhere() -> AdminClient<DefaultClientContext> {
        ClientConfig::new()
            .set("bootstrap.servers", "127.0.0.1:1")
            .set("log_level", "0")
            .create()
            .expect("an admin client")
    }

    #[test]
    fn every_request_to_a_broker_that_does_not_answer_is_an_error_in_time() {
        let admin = nowhere();
        let timeout = Duration::from_millis(500);
        let started = std::time::Instant::now();
        let listed = list(admin.inner(), timeout).unwrap_err().to_string();
        assert!(listed.starts_with("cannot list"), "{listed}");
        let described = describe(admin.inner(), &["g".into()], timeout)
            .unwrap_err()
            .to_string();
        assert!(described.starts_with("cannot describe"), "{described}");
        let offsets = committed(admin.inner(), "g", timeout)
            .unwrap_err()
            .to_string();
        assert!(offsets.starts_with("cannot read"), "{offsets}");
        // Each answered by the request's own timeout, not the poll's margin of 5 s.
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn a_loading_coordinator_is_asked_again_until_it_answers() {
        let mut asked = 0;
        let answer = patiently(Duration::from_secs(5), |_| {
            asked += 1;
            if asked < 3 {
                Err(refusal(
                    rd::rd_kafka_resp_err_t::RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS,
                    "loading".into(),
                ))
            } else {
                Ok(asked)
            }
        });
        assert_eq!(answer.unwrap(), 3);
    }

    #[test]
    fn a_coordinator_loading_past_the_timeout_is_the_last_refusal() {
        let started = Instant::now();
        let answer: Result<()> = patiently(Duration::from_millis(700), |_| {
            Err(refusal(
                rd::rd_kafka_resp_err_t::RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE,
                "cannot list every consumer group: not available".into(),
            ))
        });
        assert_eq!(
            answer.unwrap_err().to_string(),
            "cannot list every consumer group: not available"
        );
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn any_other_refusal_is_an_error_at_once() {
        let mut asked = 0;
        let answer: Result<()> = patiently(Duration::from_secs(5), |_| {
            asked += 1;
            Err(refusal(
                rd::rd_kafka_resp_err_t::RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED,
                "cannot describe consumer group g: not authorized".into(),
            ))
        });
        assert!(answer.is_err());
        assert_eq!(asked, 1);
    }

    #[test]
    fn describing_no_group_asks_nothing() {
        let admin = nowhere();
        assert_eq!(
            describe(admin.inner(), &[], Duration::from_millis(1)).unwrap(),
            vec![]
        );
    }

    #[test]
    fn a_name_with_a_nul_is_an_error_not_a_panic() {
        let admin = nowhere();
        assert!(describe(admin.inner(), &["a\0b".into()], Duration::from_millis(1)).is_err());
        assert!(committed(admin.inner(), "a\0b", Duration::from_millis(1)).is_err());
    }
}
