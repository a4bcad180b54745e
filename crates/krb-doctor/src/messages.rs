//! What krb-doctor says, in English and Korean (`KRB_LANG=ko` or a Korean locale): each check's
//! name, status, finding and fix. scripts/doctor.sh prints its own checks from the same words
//! (its `line` and `krb_line`), so that a Korean learner reads one language top to bottom.

use krb_cli::lang::Msg;

/// The status words, each padded to the status column where it is printed.
pub const OK: Msg = Msg {
    en: "ok",
    ko: "정상",
};
pub const WARN: Msg = Msg {
    en: "warn",
    ko: "주의",
};
pub const FAILED: Msg = Msg {
    en: "FAILED",
    ko: "실패",
};
/// A check's line: status, name, finding; and the fix of a warning or failure.
pub const LINE: Msg = Msg {
    en: "{status} {name}: {detail}",
    ko: "{status} {name}: {detail}",
};
pub const FIX: Msg = Msg {
    en: "; fix: {fix}",
    ko: "; 고칠 방법: {fix}",
};

/// The checks' names. `Kafka` and `namespace` are the pages' own words in both languages.
pub const NAMESPACE: Msg = Msg {
    en: "namespace",
    ko: "namespace",
};
pub const BROKER: Msg = Msg {
    en: "broker",
    ko: "브로커",
};
pub const KAFKA: Msg = Msg {
    en: "Kafka",
    ko: "Kafka",
};
pub const ACCESS: Msg = Msg {
    en: "access",
    ko: "권한",
};
pub const CLOCK: Msg = Msg {
    en: "clock",
    ko: "시계",
};

/// lib.rs: the client, the bootstrap broker and the brokers it names.
pub const NO_CLIENT: Msg = Msg {
    en: "cannot make a Kafka client: {why}",
    ko: "Kafka 클라이언트를 만들 수 없어요: {why}",
};
pub const NO_CLIENT_FIX: Msg = Msg {
    en: "check the -X properties",
    ko: "-X 속성을 확인하세요",
};
pub const NO_BROKER: Msg = Msg {
    en: "no Kafka broker answers at {bootstrap} within {seconds} s ({why})",
    ko: "{bootstrap}에서 {seconds}초 안에 답하는 Kafka 브로커가 없어요 ({why})",
};
pub const START_BROKER: Msg = Msg {
    en: "start one (scripts/kafka-local.sh start, or docker compose -p kreb up -d), or point \
         KRB_BOOTSTRAP at the room's broker (export KRB_BOOTSTRAP=HOST:9481)",
    ko: "브로커를 띄우거나(scripts/kafka-local.sh start, 또는 docker compose -p kreb up -d) \
         KRB_BOOTSTRAP이 교실의 브로커를 가리키게 하세요(export KRB_BOOTSTRAP=HOST:9481)",
};
pub const NAMED_HERE: Msg = Msg {
    en: "{bootstrap} answers, but names its broker {id} at {at}, which is this machine, not the \
         broker",
    ko: "{bootstrap}의 브로커는 답하지만 브로커 {id}의 주소를 알려 주는데({at}), 그건 브로커가 \
         아니라 이 머신이에요",
};
pub const NAMED_SILENT: Msg = Msg {
    en: "{bootstrap} answers, but names its broker {id} at {at}, which does not answer from here \
         ({why})",
    ko: "{bootstrap}의 브로커는 답하지만 브로커 {id}의 주소를 알려 주는데({at}), 여기서는 그 \
         주소가 답하지 않아요 ({why})",
};
pub const ADVERTISE_FIX: Msg = Msg {
    en:
        "the broker must give clients an address the room reaches: its host starts it with \
         KRB_ADVERTISE=THAT-ADDRESS (scripts/kafka-local.sh start, or docker compose -p kreb up -d)",
    ko: "브로커는 교실에서 닿는 주소를 클라이언트에게 알려 줘야 해요: 브로커의 머신에서 \
         KRB_ADVERTISE=THAT-ADDRESS로 띄우세요(scripts/kafka-local.sh start, 또는 docker compose \
         -p kreb up -d)",
};
pub const BROKERS: Msg = Msg {
    en: "Kafka answers at {bootstrap}: broker {brokers}",
    ko: "{bootstrap}에서 Kafka가 답해요: 브로커 {brokers}",
};
/// One broker of [`BROKERS`]' list.
pub const BROKER_AT: Msg = Msg {
    en: "{id} at {at}",
    ko: "{id}번 {at}",
};
pub const CLOCK_UNMEASURED: Msg = Msg {
    en: "not measured: {why}",
    ko: "재지 못했어요: {why}",
};
pub const CLOCK_UNMEASURED_FIX: Msg = Msg {
    en: "the clock check creates and deletes a topic of your namespace: the broker must allow it",
    ko: "시계 검사는 namespace의 토픽을 하나 만들었다가 지워요: 브로커가 그것을 허락해야 해요",
};

/// place.rs: the namespace.
pub const NS_SET: Msg = Msg {
    en: "KRB_NS={ns}: your topics and groups on the broker are {ns}-NAME",
    ko: "KRB_NS={ns}: 브로커에서 내 토픽과 그룹은 {ns}-NAME이에요",
};
pub const NS_LOCAL: Msg = Msg {
    en: "none set, none needed: the broker ({bootstrap}) is on this machine",
    ko: "정하지 않았고 필요도 없어요: 브로커({bootstrap})가 이 머신에 있어요",
};
pub const NS_NEEDED: Msg = Msg {
    en: "KRB_NS is not set and the broker ({bootstrap}) is not on this machine, so others may \
         share it: your `topic pay 2` would recreate the topic they read",
    ko: "KRB_NS가 없는데 브로커({bootstrap})가 이 머신에 있지 않아서 다른 사람도 쓸 수 있어요: 내 \
         `topic pay 2`가 그 사람들이 읽는 토픽을 다시 만들어 버려요",
};
pub const NS_FIX: Msg = Msg {
    en: "pick a name of your own: export KRB_NS=yourname (letters, digits, . _ -)",
    ko: "자기 이름을 정하세요: export KRB_NS=yourname (영문자, 숫자, . _ -)",
};

/// login.rs: a room's login and what its ACLs allow.
pub const LOGIN_REFUSED_FIX: Msg = Msg {
    en: "the broker refused the login {user} of {source}: take the .env and .conf of your handout \
         again (the teacher's scripts/room.sh add NAME wrote them) and source the .env",
    ko:
        "브로커가 {source}의 로그인({user})을 거절했어요: 유인물의 .env와 .conf를 다시 받아(강사의 \
         scripts/room.sh add NAME이 만든 파일이에요) .env를 source하세요",
};
pub const NO_LOGIN_FIX: Msg = Msg {
    en: "the broker closed the connection, as a workshop room does to a client without a login: \
         source your handout (source NAME.env), which sets KRB_CONFIG to its NAME.conf",
    ko: "워크숍 교실이 로그인 없는 클라이언트에게 하듯 브로커가 연결을 끊었어요: 유인물을 \
         source하세요(source NAME.env). KRB_CONFIG를 그 NAME.conf로 정해 줘요",
};
pub const ACCESS_OK: Msg = Msg {
    en: "{user} may create and use {topic} and the other topics of the namespace",
    ko: "{user} 사용자는 {topic} 토픽과 namespace의 다른 토픽을 만들고 쓸 수 있어요",
};
pub const ACCESS_OTHER_NS: Msg = Msg {
    en: "the broker does not let {user} create {topic} (Topic authorization failed): KRB_NS is \
         {ns}, not {user}",
    ko: "브로커가 {user} 사용자에게 {topic} 토픽을 만들게 해 주지 않아요(Topic authorization \
         failed): KRB_NS({ns})가 로그인 이름({user})와 달라요",
};
pub const ACCESS_NO_ACL: Msg = Msg {
    en: "the broker does not let {user} create {topic} (Topic authorization failed): the room has \
         no ACL for it",
    ko: "브로커가 {user} 사용자에게 {topic} 토픽을 만들게 해 주지 않아요(Topic authorization \
         failed): 교실에 그 ACL이 없어요",
};
pub const ACCESS_FIX: Msg = Msg {
    en: "the room lets {user} use only names that start with {user}-: export KRB_NS={user} (your \
         handout's .env sets it), or ask the teacher to add you (scripts/room.sh add {user})",
    ko: "교실은 {user} 사용자에게 {user}-NAME 꼴의 이름만 허락해요: export KRB_NS={user} (유인물의 .env가 \
         정해 줘요), 또는 강사에게 추가해 달라고 하세요(scripts/room.sh add {user})",
};
pub const ACCESS_UNKNOWN: Msg = Msg {
    en: "not checked: creating {topic} was answered with {code}",
    ko: "확인하지 못했어요: {topic} 토픽을 만드는 요청에 답이 왔어요: {code}",
};
pub const ACCESS_UNKNOWN_FIX: Msg = Msg {
    en: "ask the teacher whether the room's broker runs",
    ko: "교실의 브로커가 떠 있는지 강사에게 물어보세요",
};

/// versions.rs: the broker's release and KIP-848.
pub const NEW_IN: Msg = Msg {
    en: "{api} v{version}, new in {release}",
    ko: "{release}에서 새로 생긴 {api} v{version}",
};
pub const OLD_FETCH: Msg = Msg {
    en: "it serves Fetch v{version}, which Kafka 4.0 removed (KIP-896)",
    ko: "Kafka 4.0이 KIP-896으로 없앤 Fetch v{version}까지 제공해요",
};
pub const NEW_FETCH: Msg = Msg {
    en: "Fetch from v4 only, as from 4.0 (KIP-896)",
    ko: "4.0부터처럼 Fetch는 v4부터만 제공해요, KIP-896",
};
pub const KIP848: Msg = Msg {
    en: "with the consumer group protocol of KIP-848 (ConsumerGroupHeartbeat) for lab 5",
    ko: "실습 5에 쓸 KIP-848의 컨슈머 그룹 프로토콜(ConsumerGroupHeartbeat)이 있어요",
};
pub const NO_KIP848: Msg = Msg {
    en: "without the consumer group protocol of KIP-848 (no ConsumerGroupHeartbeat): lab 5's \
         consumer variant cannot run",
    ko: "KIP-848의 컨슈머 그룹 프로토콜이 없어요(ConsumerGroupHeartbeat 없음): 실습 5의 consumer \
         변형은 돌 수 없어요",
};
pub const AT_LEAST: Msg = Msg {
    en: ">= {release} ({why}), {protocol}",
    ko: "{release} 이상({why}), {protocol}",
};
pub const BEFORE_4: Msg = Msg {
    en: "older than 4.0 ({why}), {protocol}",
    ko: "4.0보다 오래됨({why}), {protocol}",
};
pub const UNTOLD: Msg = Msg {
    en: "a version its API ranges do not tell, {protocol}",
    ko: "API 범위로는 알 수 없는 버전, {protocol}",
};
pub const NO_VERSIONS: Msg = Msg {
    en: "its version is not known: librdkafka logged no ApiVersions answer",
    ko: "버전을 알 수 없어요: librdkafka가 ApiVersions 응답을 남기지 않았어요",
};
pub const KAFKA_FIX: Msg = Msg {
    en: "the labs are written against Kafka 4.3.1 (scripts/kafka-local.sh start, or docker \
         compose -p kreb up -d, runs it)",
    ko: "실습은 Kafka 4.3.1에 맞춰 쓰였어요(scripts/kafka-local.sh start, 또는 docker compose -p \
         kreb up -d가 그 버전을 띄워요)",
};

/// clock.rs: this machine's clock against the broker's, and why it was not measured.
pub const SECONDS: Msg = Msg {
    en: "{seconds} s",
    ko: "{seconds}초",
};
pub const CLOCK_SAME: Msg = Msg {
    en: "this machine's clock is the same as the broker's (± {plus_minus})",
    ko: "이 머신의 시계는 브로커의 시계와 같아요(± {plus_minus})",
};
pub const CLOCK_BEHIND: Msg = Msg {
    en: "this machine's clock is {seconds} behind the broker's (± {plus_minus})",
    ko: "이 머신의 시계가 브로커의 시계보다 {seconds} 느려요(± {plus_minus})",
};
pub const CLOCK_AHEAD: Msg = Msg {
    en: "this machine's clock is {seconds} ahead of the broker's (± {plus_minus})",
    ko: "이 머신의 시계가 브로커의 시계보다 {seconds} 빨라요(± {plus_minus})",
};
pub const CLOCK_SLOW: Msg = Msg {
    en: "{detail}: the round trip to the broker is too slow to tell within {tolerance}",
    ko: "{detail}: 브로커까지 왕복이 너무 느려서 {tolerance} 안으로 잴 수 없어요",
};
pub const CLOCK_SLOW_FIX: Msg = Msg {
    en: "run scripts/doctor.sh again when the network is quieter",
    ko: "네트워크가 한가할 때 scripts/doctor.sh를 다시 실행하세요",
};
pub const CLOCK_FAR: Msg = Msg {
    en: "{detail}, more than {tolerance} apart",
    ko: "{detail}. {tolerance}보다 더 차이 나요",
};
pub const CLOCK_FAR_FIX: Msg = Msg {
    en: "set the clock from the network (sudo timedatectl set-ntp true), on this machine or the \
         broker's",
    ko: "이 머신이나 브로커 머신의 시계를 네트워크에 맞추세요(sudo timedatectl set-ntp true)",
};
pub const NO_SCRATCH_REQUEST: Msg = Msg {
    en: "cannot ask for a scratch topic: {why}",
    ko: "임시 토픽을 요청할 수 없어요: {why}",
};
pub const NO_SCRATCH: Msg = Msg {
    en: "cannot create the scratch topic {topic}: {code}",
    ko: "임시 토픽({topic})을 만들 수 없어요: {code}",
};
pub const NO_SCRATCH_ANSWER: Msg = Msg {
    en: "the broker did not answer the request to create {topic}",
    ko: "{topic} 토픽을 만드는 요청에 브로커가 답하지 않았어요",
};
pub const SCRATCH_LEFT: Msg = Msg {
    en: "measured, but the scratch topic {topic} is still there: krb-topic {topic} --delete",
    ko: "쟀지만 임시 토픽({topic})이 아직 남아 있어요: krb-topic {topic} --delete",
};
pub const NOT_SENT: Msg = Msg {
    en: "cannot send to {topic}: {why}",
    ko: "{topic} 토픽에 보낼 수 없어요: {why}",
};
pub const NOT_APPEND_TIME: Msg = Msg {
    en: "the broker stamped the message with {why}, not its append time",
    ko: "브로커가 메시지에 추가 시각이 아닌 시각을 찍었어요({why})",
};
pub const NOT_DELIVERED: Msg = Msg {
    en: "the message to {topic} was not delivered: {why}",
    ko: "{topic} 토픽으로 보낸 메시지가 전달되지 않았어요: {why}",
};
pub const NO_REPORT: Msg = Msg {
    en: "no delivery report for the message to {topic} within {seconds} s",
    ko: "{topic} 토픽으로 보낸 메시지의 전달 보고가 {seconds}초 안에 오지 않았어요",
};

/// Every message with a Korean text of its own (the names and the line's frame aside).
pub const ALL: &[Msg] = &[
    OK,
    WARN,
    FAILED,
    FIX,
    BROKER,
    ACCESS,
    CLOCK,
    NO_CLIENT,
    NO_CLIENT_FIX,
    NO_BROKER,
    START_BROKER,
    NAMED_HERE,
    NAMED_SILENT,
    ADVERTISE_FIX,
    BROKERS,
    BROKER_AT,
    CLOCK_UNMEASURED,
    CLOCK_UNMEASURED_FIX,
    NS_SET,
    NS_LOCAL,
    NS_NEEDED,
    NS_FIX,
    LOGIN_REFUSED_FIX,
    NO_LOGIN_FIX,
    ACCESS_OK,
    ACCESS_OTHER_NS,
    ACCESS_NO_ACL,
    ACCESS_FIX,
    ACCESS_UNKNOWN,
    ACCESS_UNKNOWN_FIX,
    NEW_IN,
    OLD_FETCH,
    NEW_FETCH,
    KIP848,
    NO_KIP848,
    AT_LEAST,
    BEFORE_4,
    UNTOLD,
    NO_VERSIONS,
    KAFKA_FIX,
    SECONDS,
    CLOCK_SAME,
    CLOCK_BEHIND,
    CLOCK_AHEAD,
    CLOCK_SLOW,
    CLOCK_SLOW_FIX,
    CLOCK_FAR,
    CLOCK_FAR_FIX,
    NO_SCRATCH_REQUEST,
    NO_SCRATCH,
    NO_SCRATCH_ANSWER,
    SCRATCH_LEFT,
    NOT_SENT,
    NOT_APPEND_TIME,
    NOT_DELIVERED,
    NO_REPORT,
];

#[cfg(test)]
mod tests {
    use super::*;
    use krb_cli::lang::{declared, table_problems};

    #[test]
    fn every_message_is_korean_with_the_same_placeholders_and_listed() {
        assert_eq!(table_problems(ALL), Vec::<String>::new());
        // LINE, NAMESPACE and KAFKA are the same in both languages.
        assert_eq!(ALL.len() + 3, declared(include_str!("messages.rs")));
    }
}
