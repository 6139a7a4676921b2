/// WARNING! UNTESTED
//  TODO: test
// This is  not part of DDS spec. We implement mio mio_06::Evented so that the
// application can asynchronously poll DataReader(s).
#[cfg(feature = "mio_06")]
impl<D, DA> mio_06::Evented for DataReader<D, DA>
where
  DA: DeserializerAdapter<D>,
{
  // We just delegate all the operations to notification_receiver, since it
  // already implements mio_06::Evented
  fn register(
    &self,
    poll: &mio_06::Poll,
    token: mio_06::Token,
    interest: mio_06::Ready,
    opts: mio_06::PollOpt,
  ) -> io::Result<()> {
    self.keyed_datareader.register(poll, token, interest, opts)
  }

  fn reregister(
    &self,
    poll: &mio_06::Poll,
    token: mio_06::Token,
    interest: mio_06::Ready,
    opts: mio_06::PollOpt,
  ) -> io::Result<()> {
    self
      .keyed_datareader
      .reregister(poll, token, interest, opts)
  }

  fn deregister(&self, poll: &mio_06::Poll) -> io::Result<()> {
    self.keyed_datareader.deregister(poll)
  }
}

/// WARNING! UNTESTED
//  TODO: test
#[cfg(feature = "mio_08")]
impl<D, DA> mio_08::event::Source for DataReader<D, DA>
where
  DA: DeserializerAdapter<D>,
{
  fn register(
    &mut self,
    registry: &mio_08::Registry,
    token: mio_08::Token,
    interests: mio_08::Interest,
  ) -> io::Result<()> {
    // with_key::DataReader implements .register() for two traits, so need to
    // use disambiguation syntax to call .register() here.
    <WithKeyDataReader<NoKeyWrapper<D>, DAWrapper<DA>> as mio_08::event::Source>::register(
      &mut self.keyed_datareader,
      registry,
      token,
      interests,
    )
  }

  fn reregister(
    &mut self,
    registry: &mio_08::Registry,
    token: mio_08::Token,
    interests: mio_08::Interest,
  ) -> io::Result<()> {
    <WithKeyDataReader<NoKeyWrapper<D>, DAWrapper<DA>> as mio_08::event::Source>::reregister(
      &mut self.keyed_datareader,
      registry,
      token,
      interests,
    )
  }

  fn deregister(&mut self, registry: &mio_08::Registry) -> io::Result<()> {
    <WithKeyDataReader<NoKeyWrapper<D>, DAWrapper<DA>> as mio_08::event::Source>::deregister(
      &mut self.keyed_datareader,
      registry,
    )
  }
}

impl<D, DA> mio1::event::Source for DataReader<D, DA>
where
  DA: DeserializerAdapter<D>,
{
  fn register(
    &mut self,
    registry: &mio1::Registry,
    token: mio1::Token,
    interests: mio1::Interest,
  ) -> io::Result<()> {
    <WithKeyDataReader<NoKeyWrapper<D>, DAWrapper<DA>> as mio1::event::Source>::register(
      &mut self.keyed_datareader,
      registry,
      token,
      interests,
    )
  }

  fn reregister(
    &mut self,
    registry: &mio1::Registry,
    token: mio1::Token,
    interests: mio1::Interest,
  ) -> io::Result<()> {
    <WithKeyDataReader<NoKeyWrapper<D>, DAWrapper<DA>> as mio1::event::Source>::reregister(
      &mut self.keyed_datareader,
      registry,
      token,
      interests,
    )
  }

  fn deregister(&mut self, registry: &mio1::Registry) -> io::Result<()> {
    <WithKeyDataReader<NoKeyWrapper<D>, DAWrapper<DA>> as mio1::event::Source>::deregister(
      &mut self.keyed_datareader,
      registry,
    )
  }
}

/// WARNING! UNTESTED
//  TODO: test
use crate::no_key::SimpleDataReaderEventStream;

impl<'a, D, DA> StatusEvented<'a, DataReaderStatus, SimpleDataReaderEventStream<'a, D, DA>>
  for DataReader<D, DA>
where
  D: 'static,
  DA: DeserializerAdapter<D>,
{
  #[cfg(feature = "mio_06")]
  fn as_status_evented(&mut self) -> &dyn mio_06::Evented {
    self.keyed_datareader.as_status_evented()
  }

  #[cfg(feature = "mio_08")]
  fn as_status_source(&mut self) -> &mut dyn mio_08::event::Source {
    self.keyed_datareader.as_status_source()
  }

  fn as_status_source_mio1(&mut self) -> &mut dyn mio1::event::Source {
    self.keyed_datareader.as_status_source_mio1()
  }

  fn as_async_status_stream(&'a self) -> SimpleDataReaderEventStream<'a, D, DA> {
    SimpleDataReaderEventStream::from_keyed(self.keyed_datareader.as_async_status_stream())
  }

  fn try_recv_status(&self) -> Option<DataReaderStatus> {
    self.keyed_datareader.try_recv_status()
  }
}

impl<D, DA> HasQoSPolicy for DataReader<D, DA>
where
  D: 'static,
  DA: DeserializerAdapter<D>,
{
  fn qos(&self) -> QosPolicies {
    self.keyed_datareader.qos()
  }
}

impl<D, DA> RTPSEntity for DataReader<D, DA>
where
  D: 'static,
  DA: DeserializerAdapter<D>,
{
  fn guid(&self) -> GUID {
    self.keyed_datareader.guid()
  }
}
